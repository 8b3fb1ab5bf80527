package scenario

import (
	"bytes"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// IsLeaving reports whether a channel frame carries a server's Leaving:
// tests hold it back, to have it come after the server's DISCONNECT.
func IsLeaving(frame []byte) bool {
	_, _, payload, ok := link.ParseFrame(frame)
	if !ok {
		return false
	}
	payload = bytes.Clone(payload)
	wire.SetTag(payload, 0) // a connection's or a term's (wire.ConnTag)
	h, body, err := wire.ParseHeader(payload)
	if err != nil || h.Type != wire.TypeTicnet {
		return false
	}
	kind, err := wire.TicnetKind(body)
	return err == nil && kind == wire.TicnetKindLeaving
}
