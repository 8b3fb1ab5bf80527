package wire

// Rejected tells a client why the server refused it (type 2, unreliable).
type Rejected struct {
	Message string // raw bytes: show it through Printable
}

func (*Rejected) Type() Type { return TypeRejected }

func (m *Rejected) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.String(m.Message)
	return w.Buf
}

func (m *Rejected) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Message = r.String("message")
	return bodyErr(&r, TypeRejected)
}

// ConsoleMessage is text for a client's console (type 12, sent reliable).
type ConsoleMessage struct {
	Text string // raw bytes: show it through Printable
}

func (*ConsoleMessage) Type() Type { return TypeConsoleMessage }

func (m *ConsoleMessage) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.String(m.Text)
	return w.Buf
}

func (m *ConsoleMessage) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Text = r.String("message")
	return bodyErr(&r, TypeConsoleMessage)
}

// Empty is a message with no body. Its Kind says which: KEEPALIVE,
// DISCONNECT, DISCONNECT_ACK, QUERY, NAT_HOLE_PUNCH, or a client's LAUNCH
// request. Trailing bytes are tolerated, as by the reference.
type Empty struct {
	Kind Type
}

// Messages without a body.
var (
	Keepalive     = &Empty{Kind: TypeKeepalive}
	Disconnect    = &Empty{Kind: TypeDisconnect}
	DisconnectAck = &Empty{Kind: TypeDisconnectAck}
	Query         = &Empty{Kind: TypeQuery}
	NATHolePunch  = &Empty{Kind: TypeNATHolePunch}
	LaunchRequest = &Empty{Kind: TypeLaunch} // client to server: please launch
)

func (m *Empty) Type() Type                   { return m.Kind }
func (m *Empty) AppendBody(dst []byte) []byte { return dst }
func (m *Empty) DecodeBody(body []byte) error { return nil }

// Launch tells the clients that the game is launching (type 15, server to
// client, sent reliable).
type Launch struct {
	NumPlayers uint8
}

func (*Launch) Type() Type { return TypeLaunch }

func (m *Launch) AppendBody(dst []byte) []byte { return append(dst, m.NumPlayers) }

func (m *Launch) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.NumPlayers = r.U8("num_players")
	return bodyErr(&r, TypeLaunch)
}

// ReliableAck acknowledges reliable packets: Ack is the next sequence number
// expected (type 10).
type ReliableAck struct {
	Ack uint8
}

func (*ReliableAck) Type() Type { return TypeReliableAck }

func (m *ReliableAck) AppendBody(dst []byte) []byte { return append(dst, m.Ack) }

func (m *ReliableAck) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Ack = r.U8("ack")
	return bodyErr(&r, TypeReliableAck)
}

// GameDataAck tells the server that the client has consumed every tic below
// the one whose low byte is Ack (type 7).
type GameDataAck struct {
	Ack uint8
}

func (*GameDataAck) Type() Type { return TypeGameDataAck }

func (m *GameDataAck) AppendBody(dst []byte) []byte { return append(dst, m.Ack) }

func (m *GameDataAck) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Ack = r.U8("ack")
	return bodyErr(&r, TypeGameDataAck)
}

// GameDataResend asks the other side to send tics [Start, Start+Count)
// again (type 11, both directions). Start is a full tic number.
type GameDataResend struct {
	Start uint32
	Count uint8
}

func (*GameDataResend) Type() Type { return TypeGameDataResend }

func (m *GameDataResend) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U32(m.Start)
	w.U8(m.Count)
	return w.Buf
}

func (m *GameDataResend) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Start = r.U32("start_tic")
	m.Count = r.U8("num_tics")
	return bodyErr(&r, TypeGameDataResend)
}
