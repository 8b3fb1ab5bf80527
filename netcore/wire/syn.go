package wire

import "strconv"

// Magic numbers that open a client's SYN (spec §6.1).
const (
	Magic    uint32 = 0x56ABE18C // NET_MAGIC_NUMBER
	OldMagic uint32 = 0xCCD974D4 // clients before 3.0: answered with REJECTED
)

// MaxProtocols bounds the protocol list of a SYN or QUERY_RESPONSE. The
// reference sends one name; ticnet sends two.
const MaxProtocols = 16

// ConnectData describes a client's game (spec §6.1).
type ConnectData struct {
	GameMode    uint8 // GameMode
	GameMission uint8 // GameMission
	LowResTurn  bool
	Drone       bool
	MaxPlayers  uint8 // the game's MAXPLAYERS
	IsFreedoom  uint8
	WADSHA1     [20]byte
	DEHSHA1     [20]byte
	PlayerClass uint8 // Hexen; Doom leaves it uninitialised, so any value is carried
}

func (c *ConnectData) appendTo(w *Writer) {
	w.U8(c.GameMode)
	w.U8(c.GameMission)
	w.U8(b2u(c.LowResTurn))
	w.U8(b2u(c.Drone))
	w.U8(c.MaxPlayers)
	w.U8(c.IsFreedoom)
	w.Bytes(c.WADSHA1[:])
	w.Bytes(c.DEHSHA1[:])
	w.U8(c.PlayerClass)
}

func (c *ConnectData) readFrom(r *Reader) {
	c.GameMode = r.U8("gamemode")
	c.GameMission = r.U8("gamemission")
	c.LowResTurn = r.U8("lowres_turn") != 0
	c.Drone = r.U8("drone") != 0
	c.MaxPlayers = r.U8("max_players")
	c.IsFreedoom = r.U8("is_freedoom")
	r.Bytes(c.WADSHA1[:], "wad_sha1")
	r.Bytes(c.DEHSHA1[:], "deh_sha1")
	c.PlayerClass = r.U8("player_class")
}

// SYN is a client's connection request (type 0, unreliable).
type SYN struct {
	Magic      uint32
	Version    string   // e.g. "Chocolate Doom 3.0.0"
	Protocols  []string // every protocol the client speaks
	Connect    ConnectData
	PlayerName string
}

func (*SYN) Type() Type { return TypeSYN }

func (m *SYN) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U32(m.Magic)
	w.String(m.Version)
	w.U8(uint8(len(m.Protocols)))
	for _, p := range m.Protocols {
		w.String(p)
	}
	m.Connect.appendTo(&w)
	w.String(m.PlayerName)
	return w.Buf
}

func (m *SYN) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Magic = r.U32("magic")
	m.Version = r.String("client_version")
	m.Protocols = readProtocols(&r, m.Protocols[:0])
	m.Connect.readFrom(&r)
	m.PlayerName = r.String("player_name")
	return bodyErr(&r, TypeSYN)
}

// readProtocols reads a u8 count and that many names into dst.
func readProtocols(r *Reader, dst []string) []string {
	at := r.Offset()
	n := int(r.U8("num_protocols"))
	if n > MaxProtocols {
		r.failAt(at, "num_protocols", strconv.Itoa(n)+" protocols > limit "+strconv.Itoa(MaxProtocols))
		return dst
	}
	if n > r.Remaining() { // every name takes at least its NUL
		r.failAt(at, "num_protocols", strconv.Itoa(n)+" protocols cannot fit in "+strconv.Itoa(r.Remaining())+" bytes")
		return dst
	}
	for i := 0; i < n && r.err == nil; i++ {
		dst = append(dst, r.String("protocol"))
	}
	return dst
}

// SYNReply is the server's answer to a SYN (type 0, sent reliable).
type SYNReply struct {
	Version  string // the server's version string
	Protocol string // the protocol chosen for this connection
}

func (*SYNReply) Type() Type { return TypeSYN }

func (m *SYNReply) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.String(m.Version)
	w.String(m.Protocol)
	return w.Buf
}

func (m *SYNReply) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Version = r.String("server_version")
	m.Protocol = r.String("protocol")
	return bodyErr(&r, TypeSYN)
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
