package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"
)

// errNothingToVerify is the error of a replay without checksums.
var errNothingToVerify = errors.New("nothing to verify: the replay records no checksum (a server's replay: a server runs no game)")

// verify plays replay file data into a new testgame and compares every
// recorded checksum. It returns the exit status: 0 when every one is
// equal, 1 when one differs.
func verify(w io.Writer, data []byte) (int, error) {
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return 0, err
	}
	g := testgame.New(1) // its seed draws only the input it builds, and a replay builds none
	g.Input = r.Header.Setup.Input
	res, err := replay.Verify(data, g)
	switch {
	case err != nil:
		return 0, err
	case res.Checked == 0:
		return 0, errNothingToVerify
	case res.Mismatch != nil:
		fmt.Fprintf(w, "MISMATCH at %v; %d of %d checksums compared differ, over %d tics\n", res.Mismatch,
			res.Mismatches, res.Checked, res.Tics)
		return 1, nil
	}
	fmt.Fprintf(w, "ok: %d tics played into testgame, %d checksums compared, every one equal\n", res.Tics, res.Checked)
	return 0, nil
}
