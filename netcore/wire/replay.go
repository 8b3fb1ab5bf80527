package wire

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/ticnet/ticnet/internal/text"
)

// A replay file is one game's confirmed history: a header, then records to
// the end of the file, each a tic or a snapshot. It is written as the game
// runs, so the file of a game in progress is whole up to its last record.
//
//	magic "TICNETRP", version u8
//	header: protocol (string), settings (as GAMESTART's), setup (as
//	  ModeNotice's), the player names (count u8, then a string each, by
//	  player number), start tic u32, checksum interval u8
//	records:
//	  tic:      flags u8 (< 0x80): ReplayHas* bits; then, as flagged,
//	            in-game u8, substituted u8; a command diff for each player
//	            in the game, lowest number first, against that player's
//	            previous command in the file (zero after a snapshot); the
//	            checksum u32; each player's checksum u16, same order.
//	  snapshot: 0x80, tic u32 (the next tic's: the state before it),
//	            length u32, the state. The diffs after it start from zero
//	            commands and a game with nobody in it, so a player can
//	            start reading there.
//
// Every number is big-endian. Tics are consecutive from the start tic.
const ReplayMagic = "TICNETRP"

// ReplayVersion is the version of the format this package writes and reads.
const ReplayVersion = 1

// Bits of a tic record's flags.
const (
	ReplayHasInGame      = 1 << 0 // who is in the game changed
	ReplayHasSubstituted = 1 << 1 // some commands were the server's substitutes
	ReplayHasSum         = 1 << 2 // the game's checksum after the tic
	ReplayHasPlayerSums  = 1 << 3 // each player's own checksum after the tic
	replayTicFlags       = 1<<4 - 1
	replaySnapshotTag    = 0x80
)

// MaxReplaySnapshot bounds one snapshot in a replay file.
const MaxReplaySnapshot = 64 << 20

// ReplayHeader is what a replay says about its game before the first tic.
type ReplayHeader struct {
	Protocol string // the protocol the game was played under
	Settings Settings
	Setup    GameSetup
	Names    []string // the players' names, by player number, at most MaxPlayers; none from a copy that joined late (it saw no lobby)
	Start    uint32   // the first tic recorded
	SumEvery uint8    // a checksum every this many tics from Start; 0: none
}

// ReplayTic is one recorded tic.
type ReplayTic struct {
	Tic         uint32
	Cmds        [MaxPlayers]TicCmd // of the players in the game: a writer keeps only those, a reader zeroes the rest
	InGame      uint8              // bit p: player p is in the game
	Substituted uint8              // bit p: Cmds[p] is the server's substitute
	HasSum      bool
	Sum         uint32 // the game's checksum after the tic
	// HasPlayerSums: PlayerSums holds each player in the game's own
	// checksum after the tic (the low 16 bits of the game's).
	HasPlayerSums bool
	PlayerSums    [MaxPlayers]uint16
}

// ReplayWriter writes a replay file as the game runs.
type ReplayWriter struct {
	w      Writer
	format CmdFormat
	next   uint32
	prev   [MaxPlayers]TicCmd
	in     uint8
}

// NewReplayWriter starts a replay file with h.
func NewReplayWriter(h *ReplayHeader) *ReplayWriter {
	rw := &ReplayWriter{format: CmdFormat{InputSize: h.Setup.Input.Size}, next: h.Start}
	w := &rw.w
	w.Bytes([]byte(ReplayMagic))
	w.U8(ReplayVersion)
	w.String(h.Protocol)
	appendSettings(w, &h.Settings)
	setup := h.Setup
	if setup.TicRate == 0 {
		setup.TicRate = DefaultTicRate // the reference protocol's
	}
	appendSetup(w, &setup)
	n := min(len(h.Names), MaxPlayers)
	w.U8(uint8(n))
	for _, name := range h.Names[:n] {
		w.String(name)
	}
	w.U32(h.Start)
	w.U8(h.SumEvery)
	return rw
}

// Next is the tic the next Tic record must be.
func (rw *ReplayWriter) Next() uint32 { return rw.next }

// Len is the file's length so far.
func (rw *ReplayWriter) Len() int { return len(rw.w.Buf) }

// Bytes returns the file so far. It is the writer's buffer: valid until
// the next record.
func (rw *ReplayWriter) Bytes() []byte { return rw.w.Buf }

// Tic appends tic t, which must be Next.
func (rw *ReplayWriter) Tic(t *ReplayTic) error {
	if t.Tic != rw.next {
		return errors.New("replay: tic " + strconv.FormatUint(uint64(t.Tic), 10) + " recorded, the next is " + strconv.FormatUint(uint64(rw.next), 10))
	}
	var flags uint8
	if t.InGame != rw.in {
		flags |= ReplayHasInGame
	}
	if t.Substituted != 0 {
		flags |= ReplayHasSubstituted
	}
	if t.HasSum {
		flags |= ReplayHasSum
		if t.HasPlayerSums {
			flags |= ReplayHasPlayerSums
		}
	}
	w := &rw.w
	w.U8(flags)
	if flags&ReplayHasInGame != 0 {
		w.U8(t.InGame)
	}
	if flags&ReplayHasSubstituted != 0 {
		w.U8(t.Substituted)
	}
	for p := range MaxPlayers {
		if t.InGame&(1<<p) != 0 {
			d := Diff(&rw.prev[p], &t.Cmds[p])
			appendDiff(w, &d, rw.format)
			rw.prev[p] = Patch(&rw.prev[p], &d)
		}
	}
	if flags&ReplayHasSum != 0 {
		w.U32(t.Sum)
	}
	if flags&ReplayHasPlayerSums != 0 {
		for p := range MaxPlayers {
			if t.InGame&(1<<p) != 0 {
				w.U16(t.PlayerSums[p])
			}
		}
	}
	rw.in = t.InGame
	rw.next++
	return nil
}

// Snapshot appends the game's state before tic, which must be Next: a
// place to start playing from.
func (rw *ReplayWriter) Snapshot(tic uint32, state []byte) error {
	switch {
	case tic != rw.next:
		return errors.New("replay: snapshot of tic " + strconv.FormatUint(uint64(tic), 10) + ", the next tic is " + strconv.FormatUint(uint64(rw.next), 10))
	case len(state) > MaxReplaySnapshot:
		return errors.New("replay: snapshot of " + strconv.Itoa(len(state)) + " bytes > limit " + strconv.Itoa(MaxReplaySnapshot))
	}
	w := &rw.w
	w.U8(replaySnapshotTag)
	w.U32(tic)
	w.U32(uint32(len(state)))
	w.Bytes(state)
	rw.prev, rw.in = [MaxPlayers]TicCmd{}, 0
	return nil
}

// ReplayRecord is one record read from a replay file: a tic, or a
// snapshot when State is not nil.
type ReplayRecord struct {
	Offset int // the record's offset in the file
	Tic    ReplayTic
	State  []byte // a snapshot of the state before Tic.Tic; aliases the file
}

// IsSnapshot reports whether the record is a snapshot.
func (r *ReplayRecord) IsSnapshot() bool { return r.State != nil }

// ReplayReader reads a replay file's records in order.
type ReplayReader struct {
	Header ReplayHeader
	data   []byte
	off    int // the next record's offset
	format CmdFormat
	next   uint32
	prev   [MaxPlayers]TicCmd
	in     uint8
	body   int // the first record's offset
}

// ErrNotReplay is the error of a file that is not a ticnet replay.
var ErrNotReplay = errors.New("replay: not a ticnet replay file")

// NewReplayReader reads the header of replay file data.
func NewReplayReader(data []byte) (*ReplayReader, error) {
	if len(data) < len(ReplayMagic)+1 || string(data[:len(ReplayMagic)]) != ReplayMagic {
		return nil, ErrNotReplay
	}
	if v := data[len(ReplayMagic)]; v != ReplayVersion {
		return nil, errors.New("replay: version " + strconv.Itoa(int(v)) + ", this reads version " + strconv.Itoa(ReplayVersion))
	}
	at := len(ReplayMagic) + 1
	r := NewReader(data[at:], at)
	h := ReplayHeader{Protocol: r.String("protocol")}
	readSettings(&r, &h.Settings)
	readSetup(&r, &h.Setup)
	namesAt := r.Offset()
	n := int(r.U8("names.count"))
	if r.err == nil && n > MaxPlayers {
		r.failAt(namesAt, "names.count", strconv.Itoa(n)+" names > limit "+strconv.Itoa(MaxPlayers))
	}
	for i := 0; i < n && r.err == nil; i++ {
		h.Names = append(h.Names, r.String("name"))
	}
	h.Start = r.U32("start")
	h.SumEvery = r.U8("sum_every")
	if err := replayErr(&r, "header"); err != nil {
		return nil, err
	}
	if err := h.Setup.Input.Check(); err != nil {
		return nil, text.Wrap("replay header: ", err)
	}
	rr := &ReplayReader{Header: h, data: data, off: r.Offset(), format: CmdFormat{InputSize: h.Setup.Input.Size},
		next: h.Start}
	rr.body = rr.off
	return rr, nil
}

// Rewind goes back to the first record.
func (rr *ReplayReader) Rewind() {
	rr.off, rr.next, rr.prev, rr.in = rr.body, rr.Header.Start, [MaxPlayers]TicCmd{}, 0
}

// SeekSnapshot goes to the snapshot record at offset, which an earlier
// Next returned: the next record read is that snapshot.
func (rr *ReplayReader) SeekSnapshot(offset int, tic uint32) error {
	if offset < rr.body || offset >= len(rr.data) || rr.data[offset] != replaySnapshotTag {
		return errors.New("replay: no snapshot at offset " + strconv.Itoa(offset))
	}
	rr.off, rr.next = offset, tic
	return nil
}

// Next reads the next record into rec. It returns io.EOF at the end of
// the file, and an error for a record that is cut short or malformed.
// rec.State aliases the file.
func (rr *ReplayReader) Next(rec *ReplayRecord) error {
	if rr.off >= len(rr.data) {
		return io.EOF
	}
	r := NewReader(rr.data[rr.off:], rr.off)
	*rec = ReplayRecord{Offset: rr.off}
	tag := r.U8("record")
	if tag == replaySnapshotTag {
		if err := rr.snapshot(&r, rec); err != nil {
			return err
		}
	} else if err := rr.tic(&r, tag, &rec.Tic); err != nil {
		return err
	}
	rr.off = r.Offset()
	return nil
}

func (rr *ReplayReader) snapshot(r *Reader, rec *ReplayRecord) error {
	tic := r.U32("snapshot.tic")
	at := r.Offset()
	n := r.U32("snapshot.length")
	switch {
	case r.err != nil:
	case tic != rr.next:
		r.failAt(at-4, "snapshot.tic", "tic "+strconv.FormatUint(uint64(tic), 10)+", the next tic is "+strconv.FormatUint(uint64(rr.next), 10))
	case n > MaxReplaySnapshot:
		r.failAt(at, "snapshot.length", strconv.FormatUint(uint64(n), 10)+" bytes > limit "+strconv.Itoa(MaxReplaySnapshot))
	case int(n) > r.Remaining():
		r.failAt(at, "snapshot.state", "need "+strconv.FormatUint(uint64(n), 10)+" bytes, have "+strconv.Itoa(r.Remaining()))
	default:
		rec.State = r.take(int(n), "snapshot.state")[:n:n]
	}
	if err := replayErr(r, "snapshot of tic "+strconv.FormatUint(uint64(tic), 10)); err != nil {
		return err
	}
	if rec.State == nil {
		rec.State = []byte{}
	}
	rec.Tic = ReplayTic{Tic: tic}
	rr.prev, rr.in = [MaxPlayers]TicCmd{}, 0
	return nil
}

func (rr *ReplayReader) tic(r *Reader, flags uint8, t *ReplayTic) error {
	if flags&^replayTicFlags != 0 {
		r.failAt(r.Offset()-1, "record", "unknown record 0x"+text.Hex(uint64(flags), 2))
		return replayErr(r, "tic "+strconv.FormatUint(uint64(rr.next), 10))
	}
	in := rr.in
	if flags&ReplayHasInGame != 0 {
		in = r.U8("in_game")
	}
	var sub uint8
	if flags&ReplayHasSubstituted != 0 {
		sub = r.U8("substituted")
	}
	*t = ReplayTic{Tic: rr.next, InGame: in, Substituted: sub, HasSum: flags&ReplayHasSum != 0,
		HasPlayerSums: flags&ReplayHasPlayerSums != 0}
	prev := rr.prev
	for p := range MaxPlayers {
		if in&(1<<p) != 0 {
			var d TicDiff
			readDiff(r, &d, rr.format)
			prev[p] = Patch(&prev[p], &d)
			t.Cmds[p] = prev[p]
		}
	}
	if t.HasSum {
		t.Sum = r.U32("sum")
	}
	if t.HasPlayerSums {
		if !t.HasSum {
			r.Fail("player_sums", "player checksums without the game's")
		}
		for p := range MaxPlayers {
			if in&(1<<p) != 0 {
				t.PlayerSums[p] = r.U16("player_sum")
			}
		}
	}
	if err := replayErr(r, "tic "+strconv.FormatUint(uint64(rr.next), 10)); err != nil {
		return err
	}
	rr.prev, rr.in = prev, in
	rr.next++
	return nil
}

// replayErr is r's failure as an error about the replay's part what: a
// file cut short says so.
func replayErr(r *Reader, what string) error {
	if r.err == nil {
		return nil
	}
	r.err.Type = "replay file"
	if strings.HasPrefix(r.err.Reason, "need ") {
		return text.Wrap("replay: the file is cut short in its "+what+": ", r.err)
	}
	return text.Wrap("replay: "+what+": ", r.err)
}
