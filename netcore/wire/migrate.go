package wire

import "strconv"

// The host migration's messages (ProtocolTicnet): the server tells its
// clients who plays and which game it is (Roster), says when it leaves
// (Leaving); a client of the server that takes over says who it was and
// how far it got (Reattach), is asked for the tics the new server lacks
// (TicFetch, answered with a TicSet) and told where the game resumes
// (Resume).
const (
	TicnetKindRoster        = 11 // Roster: server to client, reliable
	TicnetKindLeaving       = 12 // Leaving: server to clients, unreliable, with its DISCONNECT
	TicnetKindReattach      = 13 // Reattach: client to a new server, reliable, after the SYN reply
	TicnetKindResume        = 14 // Resume: new server to a reattached client, reliable
	TicnetKindTicFetch      = 15 // TicFetch: new server to a reattached client
	NoPlayer           int8 = -1
)

// Roster tells every client of a game what a server that takes over needs:
// the game's id, the server's own player (NoPlayer if it plays none), and
// for each player in the game or held for a departed copy the public key
// of its copy, which a copy that reattaches must connect with (and a new
// server answer with); and what every
// copy shows: who plays, by number and name, and which player is the
// controller (who may end the game, and launch the next).
type Roster struct {
	Game         uint32
	ServerPlayer int8
	Present      uint8 // bit p: player p has a key
	Rejoinable   uint8 // bit p: player p's copy can come back (wire.Hello)
	Held         uint8 // bit p: player p's copy departed; its place is held
	Keys         [MaxPlayers]PublicKey
	Controller   int8               // NoPlayer: none
	Playing      uint8              // bit p: player p plays
	Names        [MaxPlayers]string // of the players playing or held
}

func (*Roster) Type() Type { return TypeTicnet }

// AddKey notes the key of player p's copy (nil: none) and whether the
// copy can come back.
func (m *Roster) AddKey(p int, key *PublicKey, rejoinable bool) {
	if key == nil {
		return
	}
	m.Present |= 1 << p
	m.Keys[p] = *key
	if rejoinable {
		m.Rejoinable |= 1 << p
	}
}

func (m *Roster) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindRoster)
	w.U32(m.Game)
	w.S8(m.ServerPlayer)
	w.U8(m.Present)
	w.U8(m.Rejoinable)
	w.U8(m.Held)
	for p := range MaxPlayers {
		if m.Present&(1<<p) != 0 {
			w.Bytes(m.Keys[p][:])
		}
	}
	w.S8(m.Controller)
	w.U8(m.Playing)
	for p := range MaxPlayers {
		if (m.Playing|m.Held)&(1<<p) != 0 {
			w.String(m.Names[p])
		}
	}
	return w.Buf
}

func (m *Roster) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindRoster {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a roster")
	}
	m.Game = r.U32("game")
	at := r.Offset()
	m.ServerPlayer = r.S8("server_player")
	if r.err == nil && (m.ServerPlayer < NoPlayer || m.ServerPlayer >= MaxPlayers) {
		r.failAt(at, "server_player", "player "+strconv.Itoa(int(m.ServerPlayer))+" is out of range")
	}
	m.Present = r.U8("present")
	at = r.Offset()
	m.Rejoinable = r.U8("rejoinable")
	if r.err == nil && m.Rejoinable&^m.Present != 0 {
		r.failAt(at, "rejoinable", "a rejoinable player without a key")
	}
	at = r.Offset()
	m.Held = r.U8("held")
	if r.err == nil && m.Held&^m.Rejoinable != 0 {
		r.failAt(at, "held", "a held player that cannot come back")
	}
	m.Keys = [MaxPlayers]PublicKey{}
	for p := range MaxPlayers {
		if m.Present&(1<<p) != 0 {
			r.Bytes(m.Keys[p][:], "key")
		}
	}
	at = r.Offset()
	m.Controller = r.S8("controller")
	if r.err == nil && (m.Controller < NoPlayer || m.Controller >= MaxPlayers) {
		r.failAt(at, "controller", "player "+strconv.Itoa(int(m.Controller))+" is out of range")
	}
	at = r.Offset()
	m.Playing = r.U8("playing")
	if r.err == nil && m.Playing&m.Held != 0 {
		r.failAt(at, "playing", "a held player plays")
	}
	m.Names = [MaxPlayers]string{}
	for p := range MaxPlayers {
		if (m.Playing|m.Held)&(1<<p) != 0 {
			at = r.Offset()
			if m.Names[p] = r.String("name"); len(m.Names[p]) >= MaxPlayerName {
				r.failAt(at, "name", "name longer than "+strconv.Itoa(MaxPlayerName-1)+" bytes")
			}
		}
	}
	return bodyErr(&r, TypeTicnet)
}

// Leaving is a server's last word: it leaves the game, which it ran up to
// Tic (exclusive: every tic before Tic was sent, none after). Player is
// its own player, who leaves with it (NoPlayer when it stays as a client,
// in a hand-off). Successor, when not 0, is the UID of the client it hands
// the game to; 0 leaves the choice to an election.
type Leaving struct {
	Tic       uint32
	Player    int8
	Successor uint32
}

func (*Leaving) Type() Type { return TypeTicnet }

func (m *Leaving) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindLeaving)
	w.U32(m.Tic)
	w.S8(m.Player)
	w.U32(m.Successor)
	return w.Buf
}

func (m *Leaving) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindLeaving {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a leaving")
	}
	m.Tic = r.U32("tic")
	at := r.Offset()
	m.Player = r.S8("player")
	if r.err == nil && (m.Player < NoPlayer || m.Player >= MaxPlayers) {
		r.failAt(at, "player", "player "+strconv.Itoa(int(m.Player))+" is out of range")
	}
	m.Successor = r.U32("successor")
	return bodyErr(&r, TypeTicnet)
}

// Reattach is a client's first word to the server that took its game
// over: the game, its player (whose key in the roster must be the one it
// connected with), and Confirmed, the first tic it does not hold: it has
// every tic before, and will run them as they are. Conn is the identity
// of the connection it reattaches on (see Ident).
type Reattach struct {
	Game      uint32
	Player    int8
	Confirmed uint32
	Conn      uint32
}

func (*Reattach) Type() Type { return TypeTicnet }

func (m *Reattach) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindReattach)
	w.U32(m.Game)
	w.S8(m.Player)
	w.U32(m.Confirmed)
	w.U32(m.Conn)
	return w.Buf
}

func (m *Reattach) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindReattach {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a reattach")
	}
	m.Game = r.U32("game")
	at := r.Offset()
	m.Player = r.S8("player")
	if r.err == nil && (m.Player < NoPlayer || m.Player >= MaxPlayers) {
		r.failAt(at, "player", "player "+strconv.Itoa(int(m.Player))+" is out of range")
	}
	m.Confirmed = r.U32("confirmed")
	m.Conn = r.U32("conn")
	return bodyErr(&r, TypeTicnet)
}

// Resume tells a reattached client that the game goes on under this
// server from tic Tic: the tics before it are the old server's (it is
// sent those it lacks), those from it on are this server's.
type Resume struct {
	Tic  uint32
	Term uint16 // the server's term (see Ident): its broadcasts carry its tag
}

func (*Resume) Type() Type { return TypeTicnet }

func (m *Resume) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindResume)
	w.U32(m.Tic)
	w.U16(m.Term)
	return w.Buf
}

func (m *Resume) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindResume {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a resume")
	}
	m.Tic = r.U32("tic")
	m.Term = r.U16("term")
	return bodyErr(&r, TypeTicnet)
}

// TicFetch asks a reattached client for the confirmed tics
// [Start, Start+Count) of the old server, which the new server lacks; the
// client answers with a TicSet of those it holds.
type TicFetch struct {
	Start uint32
	Count uint8
}

func (*TicFetch) Type() Type { return TypeTicnet }

func (m *TicFetch) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindTicFetch)
	w.U32(m.Start)
	w.U8(m.Count)
	return w.Buf
}

func (m *TicFetch) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindTicFetch {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a tic fetch")
	}
	m.Start = r.U32("start")
	at := r.Offset()
	m.Count = r.U8("count")
	if r.err == nil && m.Count == 0 {
		r.failAt(at, "count", "no tics asked for")
	}
	return bodyErr(&r, TypeTicnet)
}
