package wire

import "strconv"

// The late join's messages (ProtocolTicnet): a copy that connects while a
// game runs is told where it enters, loads a snapshot the server streams to
// it (TransferChunk), runs the tics after it, and says when it has caught
// up; the server asks a copy that holds the game state for the snapshot.
const (
	TicnetKindJoinStart       = 7  // JoinStart: server to joiner, reliable
	TicnetKindSnapshotRequest = 8  // SnapshotRequest: server to a copy with the state, reliable
	TicnetKindJoinReady       = 9  // JoinReady: joiner to server, reliable
	TicnetKindHello           = 10 // Hello: client to server, reliable, after the SYN reply
)

// RejoinTokenLen is the length of a rejoin token.
const RejoinTokenLen = 16

// JoinStart tells a copy that connected during a game that it joins it: the
// game's settings (ConsolePlayer is its player number, -1 to watch), the
// first tic it will be sent, the stream its snapshot comes as (the state
// before Start or a later tic, as a SnapshotRequest's stream), and the
// commands of the tic before Start, which the diffs of tic Start are
// against (diffed against zero; full turning), in the game's input layout
// (Setup, which also brings the tic rate, seed and options).
type JoinStart struct {
	Settings Settings
	Setup    GameSetup
	Start    uint32 // the snapshot is the state before this tic; tics from it on follow
	Stream   uint32 // the snapshot's stream
	Rejoined bool   // the copy gets back the player its key held
	Base     ServerTic
	// Cast is how many frames the server has broadcast: the joiner, a
	// player, checks its tag in those that follow (see ModeNotice.Cast).
	Cast uint32
	// Chain is the chain of the tics before Start (tic.Chain): the joiner
	// goes on from it, a watcher to check the tics it runs (Attest), a
	// player to sign them if it comes to serve the game.
	Chain [ChainLen]byte
}

func (*JoinStart) Type() Type { return TypeTicnet }

func (m *JoinStart) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindJoinStart)
	w.U32(m.Start)
	w.U32(m.Stream)
	w.U8(b2u(m.Rejoined))
	appendSettings(&w, &m.Settings)
	appendSetup(&w, &m.Setup)
	appendServerTic(&w, &m.Base, CmdFormat{InputSize: m.Setup.Input.Size})
	w.U32(m.Cast)
	w.Bytes(m.Chain[:])
	return w.Buf
}

func (m *JoinStart) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindJoinStart {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a join start")
	}
	m.Start = r.U32("start")
	m.Stream = r.U32("stream")
	m.Rejoined = r.U8("rejoined") != 0
	readSettings(&r, &m.Settings)
	readSetup(&r, &m.Setup)
	if r.err == nil {
		readServerTic(&r, &m.Base, CmdFormat{InputSize: m.Setup.Input.Size})
	}
	m.Cast = r.U32("cast")
	r.Bytes(m.Chain[:], "chain")
	return bodyErr(&r, TypeTicnet)
}

// SnapshotRequest asks a client for the game state before tic Tic, or
// before a later tic if it has run Tic already, to be streamed to the
// server as stream Stream. The stream is the tic (u32, big-endian)
// followed by the state.
type SnapshotRequest struct {
	Tic    uint32
	Stream uint32
}

func (*SnapshotRequest) Type() Type { return TypeTicnet }

func (m *SnapshotRequest) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindSnapshotRequest)
	w.U32(m.Tic)
	w.U32(m.Stream)
	return w.Buf
}

func (m *SnapshotRequest) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindSnapshotRequest {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a snapshot request")
	}
	m.Tic = r.U32("tic")
	m.Stream = r.U32("stream")
	return bodyErr(&r, TypeTicnet)
}

// JoinReady tells the server that a joining copy has loaded the snapshot
// and run the tics up to Tic: it can play from the next tic the server
// sends.
type JoinReady struct {
	Tic uint32
}

func (*JoinReady) Type() Type { return TypeTicnet }

func (m *JoinReady) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindJoinReady)
	w.U32(m.Tic)
	return w.Buf
}

func (m *JoinReady) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindJoinReady {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a join ready")
	}
	m.Tic = r.U32("tic")
	return bodyErr(&r, TypeTicnet)
}

// Hello is a ticnet client's first word, right after the SYN reply, and
// says whether its copy can come back: it derives its key (its SYN's)
// from a secret it keeps across reloads, so that a copy that comes back
// under a new channel identity gets its player back by its key, and the
// server holds the player for it when it leaves. Nothing on the wire lets
// another copy claim it.
//
//	u8 kind (TicnetKindHello)
//	u8 rejoinable (0 or 1)
type Hello struct {
	Rejoinable bool
}

func (*Hello) Type() Type { return TypeTicnet }

func (m *Hello) AppendBody(dst []byte) []byte {
	return append(dst, TicnetKindHello, b2u(m.Rejoinable))
}

func (m *Hello) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindHello {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a hello")
	}
	at := r.Offset()
	switch v := r.U8("rejoinable"); {
	case r.err == nil && v > 1:
		r.failAt(at, "rejoinable", "rejoinable "+strconv.Itoa(int(v))+" is neither 0 nor 1")
	default:
		m.Rejoinable = v == 1
	}
	return bodyErr(&r, TypeTicnet)
}
