package replay

import (
	"errors"
	"io"
	"strconv"

	"github.com/ticnet/ticnet/internal/text"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Mismatch is the first recorded checksum a playback did not get.
type Mismatch struct {
	Tic       uint32 // the tic after which the checksums differ
	Want, Got uint32
	// Players are the players whose own checksums differ at Tic, where
	// the replay and the game give them (PlayerChecksummer); none else.
	Players []int
}

func (m *Mismatch) String() string {
	s := "tic " + strconv.FormatUint(uint64(m.Tic), 10) + ": checksum " + text.Hex(uint64(m.Got), 8) + ", recorded " + text.Hex(uint64(m.Want), 8)
	if len(m.Players) > 0 {
		s += " (players " + text.Ints(m.Players) + ")"
	}
	return s
}

// Player plays a replay file into a game, tic by tic, in order, and
// compares the game's checksums with the recorded ones. It can seek to any
// tic from a snapshot at or before it, for a game that can load.
type Player struct {
	r     *wire.ReplayReader
	game  tic.Game
	snaps []snapshotAt // every snapshot in the file, by tic
	end   uint32       // one past the last tic recorded
	tic   uint32       // the next tic to run
	rec   wire.ReplayRecord

	mismatch   *Mismatch
	checked    int // checksums compared
	mismatches int // checksums that differed
	cmds       [tic.MaxPlayers]tic.Cmd
	ingame     [tic.MaxPlayers]bool
}

type snapshotAt struct {
	tic    uint32
	offset int
}

// ErrNeedsLoad is the error of a replay that starts from a snapshot
// (a copy that joined late) played into a game that cannot load one.
var ErrNeedsLoad = errors.New("replay: it starts from a snapshot, and the game cannot load one")

// NewPlayer reads replay file data, whole (an error for any record
// that is malformed or cut short), and sets game at its first tic: as it
// is, for a game that starts there, or from the file's first snapshot.
// The player keeps data: do not change it.
func NewPlayer(data []byte, game tic.Game) (*Player, error) {
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return nil, err
	}
	p := &Player{r: r, game: game, tic: r.Header.Start, end: r.Header.Start}
	var rec wire.ReplayRecord
	for {
		err := r.Next(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if rec.IsSnapshot() {
			p.snaps = append(p.snaps, snapshotAt{tic: rec.Tic.Tic, offset: rec.Offset})
		} else {
			p.end = rec.Tic.Tic + 1
		}
	}
	r.Rewind()
	if h := &r.Header; h.Settings.TicDup == 0 {
		h.Settings.TicDup = 1
	}
	_, canLoad := game.(tic.Snapshotter)
	switch {
	case len(p.snaps) > 0 && p.snaps[0].tic == r.Header.Start && canLoad:
		if err := p.load(p.snaps[0]); err != nil {
			return nil, err
		}
	case r.Header.Start != 0:
		return nil, ErrNeedsLoad
	}
	return p, nil
}

// Header is what the replay says about its game.
func (p *Player) Header() *wire.ReplayHeader { return &p.r.Header }

// Tic is the next tic to run: the game's state is the state before it.
func (p *Player) Tic() uint32 { return p.tic }

// Start is the first tic recorded; End is one past the last.
func (p *Player) Start() uint32 { return p.r.Header.Start }

// End is one past the last tic recorded.
func (p *Player) End() uint32 { return p.end }

// Done reports whether every recorded tic has run.
func (p *Player) Done() bool { return p.tic == p.end }

// Mismatch is the first recorded checksum the game did not give, or nil.
func (p *Player) Mismatch() *Mismatch { return p.mismatch }

// Checked is how many recorded checksums were compared, and Mismatches
// how many of them differed.
func (p *Player) Checked() int { return p.checked }

// Mismatches is how many compared checksums differed.
func (p *Player) Mismatches() int { return p.mismatches }

// Snapshots lists the tics a playback can seek to directly.
func (p *Player) Snapshots() []uint32 {
	tics := make([]uint32, len(p.snaps))
	for i, s := range p.snaps {
		tics[i] = s.tic
	}
	return tics
}

// Run runs up to n tics (fewer at the end of the replay) and reports how
// many it ran.
func (p *Player) Run(n int) (int, error) {
	ran := 0
	for ran < n && !p.Done() {
		if err := p.r.Next(&p.rec); err != nil {
			return ran, err // NewPlayer read the file whole: not for a file left unchanged
		}
		if p.rec.IsSnapshot() {
			continue // the game is there already
		}
		p.advance(&p.rec.Tic)
		p.tic++
		ran++
	}
	return ran, nil
}

// advance runs tic t on the game as the client that recorded it did, and
// checks its checksum.
func (p *Player) advance(t *wire.ReplayTic) {
	p.cmds = t.Cmds
	for q := range tic.MaxPlayers {
		p.ingame[q] = t.InGame&(1<<q) != 0
	}
	layout := &p.r.Header.Setup.Input
	dup := uint32(p.r.Header.Settings.TicDup)
	for k := range dup {
		if k > 0 {
			for q := range p.cmds {
				p.cmds[q] = layout.ClearEvents(p.cmds[q])
			}
		}
		if sa, ok := p.game.(tic.SubstituteAware); ok {
			sa.Substitutes(t.Tic*dup+k, t.Substituted)
		}
		p.game.RunTic(t.Tic*dup+k, &p.cmds, &p.ingame)
	}
	if !t.HasSum {
		return
	}
	p.checked++
	got := p.game.Checksum()
	if got == t.Sum {
		return
	}
	p.mismatches++
	if p.mismatch != nil {
		return
	}
	m := &Mismatch{Tic: t.Tic, Want: t.Sum, Got: got}
	if pc, ok := p.game.(tic.PlayerChecksummer); ok && t.HasPlayerSums {
		for q := range tic.MaxPlayers {
			if p.ingame[q] && uint16(pc.PlayerChecksum(q)) != t.PlayerSums[q] {
				m.Players = append(m.Players, q)
			}
		}
	}
	p.mismatch = m
}

// Seek sets the game at tic, the state before it: from the newest
// snapshot at or before tic, or from where it is when that is nearer, it
// runs the tics up to it. It cannot go back without a snapshot.
func (p *Player) Seek(t uint32) error {
	if t < p.Start() || t > p.end {
		return errors.New("replay: tic " + strconv.FormatUint(uint64(t), 10) + " is outside the recording, [" + strconv.FormatUint(uint64(p.Start()), 10) + ", " + strconv.FormatUint(uint64(p.end), 10) + "]")
	}
	var best *snapshotAt
	if _, canLoad := p.game.(tic.Snapshotter); canLoad {
		for i := range p.snaps {
			if p.snaps[i].tic <= t {
				best = &p.snaps[i]
			}
		}
	}
	if best != nil && (t < p.tic || best.tic > p.tic) {
		if err := p.load(*best); err != nil {
			return err
		}
	} else if t < p.tic {
		return errors.New("replay: no snapshot at or before tic " + strconv.FormatUint(uint64(t), 10) + " to go back to")
	}
	_, err := p.Run(int(t - p.tic))
	return err
}

// load sets the game at snapshot s.
func (p *Player) load(s snapshotAt) error {
	if err := p.r.SeekSnapshot(s.offset, s.tic); err != nil {
		return err
	}
	if err := p.r.Next(&p.rec); err != nil {
		return err
	}
	if err := p.game.(tic.Snapshotter).LoadState(p.rec.State); err != nil {
		return text.Wrap("replay: the game could not load the state of tic "+strconv.FormatUint(uint64(s.tic), 10)+": ", err)
	}
	p.tic = s.tic
	return nil
}
