package tic

import "github.com/ticnet/ticnet/netcore/wire"

// InputLayout says what a game's commands are: Doom's ticcmd (the zero
// value, which every peer understands) or opaque input of a fixed size with
// some bits marked as one-off events (the extension protocol only: a client
// and a server with such a layout speak nothing else, and refuse a peer
// whose layout differs).
type InputLayout = wire.InputLayout
