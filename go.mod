module github.com/ticnet/ticnet

go 1.26
