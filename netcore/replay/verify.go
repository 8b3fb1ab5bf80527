package replay

import (
	"errors"

	"github.com/ticnet/ticnet/netcore/tic"
)

// Result is what Verify found.
type Result struct {
	Tics       int // tics run
	Checked    int // checksums compared
	Mismatches int // of which differed
	Mismatch   *Mismatch
}

// Verify plays replay file data into game from its first tic to its
// last and compares every recorded checksum.
func Verify(data []byte, game tic.Game) (Result, error) {
	p, err := NewPlayer(data, game)
	if err != nil {
		return Result{}, err
	}
	n, err := p.Run(int(p.End() - p.Start()))
	return Result{Tics: n, Checked: p.checked, Mismatches: p.mismatches, Mismatch: p.mismatch}, err
}

// SnapshotResult is what VerifySnapshots found from one snapshot.
type SnapshotResult struct {
	Tic        uint32 // the snapshot's tic: the state before it
	Tics       int    // tics run from it, up to the next snapshot or the end
	Checked    int    // checksums compared
	Mismatches int    // of which differed
	Mismatch   *Mismatch
}

// VerifySnapshots loads every snapshot of replay file data into
// game in turn and plays the recorded tics from it up to the next one
// (the last: to the end), comparing every recorded checksum: a snapshot
// that is not the state before its tic shows in the checksums after it,
// where a playback from the first snapshot (Verify) never loads it.
// It returns one result per snapshot, in the file's order; game must be
// able to load (Snapshotter).
func VerifySnapshots(data []byte, game tic.Game) ([]SnapshotResult, error) {
	if _, ok := game.(tic.Snapshotter); !ok {
		return nil, errors.New("replay: the game cannot load a snapshot")
	}
	p, err := NewPlayer(data, game)
	if err != nil {
		return nil, err
	}
	res := make([]SnapshotResult, len(p.snaps))
	for i, s := range p.snaps {
		if err := p.load(s); err != nil {
			return res[:i], err
		}
		next := p.end
		if i+1 < len(p.snaps) {
			next = p.snaps[i+1].tic
		}
		p.checked, p.mismatches, p.mismatch = 0, 0, nil
		n, err := p.Run(int(next - s.tic))
		res[i] = SnapshotResult{Tic: s.tic, Tics: n, Checked: p.checked, Mismatches: p.mismatches, Mismatch: p.mismatch}
		if err != nil {
			return res[:i+1], err
		}
	}
	return res, nil
}
