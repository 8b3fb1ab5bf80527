package sha256

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"testing"
)

var _ hash.Hash = (*Digest)(nil)

// Every length around the block and padding edges, written at once and
// in pieces of every size, sums as crypto/sha256 does.
func TestSumsAreCryptoSHA256s(t *testing.T) {
	data := make([]byte, 300)
	for i := range data {
		data[i] = byte(i*7 + 3)
	}
	for n := range len(data) {
		want := sha256.Sum256(data[:n])
		if got := Sum256(data[:n]); got != want {
			t.Fatalf("Sum256 of %d bytes: %x, crypto/sha256 %x", n, got, want)
		}
		for piece := 1; piece <= 70; piece += 23 {
			d := New()
			for p := data[:n]; len(p) > 0; p = p[min(piece, len(p)):] {
				d.Write(p[:min(piece, len(p))])
			}
			if got := d.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("%d bytes in pieces of %d: %x, crypto/sha256 %x", n, piece, got, want)
			}
		}
	}
}

func TestSumLeavesTheDigestAsItWas(t *testing.T) {
	d := New()
	d.Write([]byte("abc"))
	first := d.Sum(nil)
	d.Write([]byte("def"))
	if want := sha256.Sum256([]byte("abcdef")); !bytes.Equal(d.Sum(nil), want[:]) {
		t.Fatal("a Sum between two Writes changed the sum")
	}
	d.Reset()
	d.Write([]byte("abc"))
	if !bytes.Equal(d.Sum(nil), first) {
		t.Fatal("Reset did not start again")
	}
}

func FuzzSumsAreCryptoSHA256s(f *testing.F) {
	f.Add([]byte("abc"), 1)
	f.Add(make([]byte, 200), 64)
	f.Fuzz(func(t *testing.T, data []byte, piece int) {
		piece = max(1, piece%100)
		want := sha256.Sum256(data)
		d := New()
		for p := data; len(p) > 0; p = p[min(piece, len(p)):] {
			d.Write(p[:min(piece, len(p))])
		}
		if got := d.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("%x, crypto/sha256 %x", got, want)
		}
	})
}

// BenchmarkSum256 sums a 64 KB state, as a bulk stream of a game state
// does; crypto/sha256 beside it.
func BenchmarkSum256(b *testing.B) {
	data := make([]byte, 64<<10)
	b.Run("impl=this", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			Sum256(data)
		}
	})
	b.Run("impl=crypto", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			sha256.Sum256(data)
		}
	})
}
