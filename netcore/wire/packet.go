package wire

import "strconv"

// Type is a packet type: the low 15 bits of a packet's first u16.
type Type uint16

// Packet types (spec §3).
const (
	TypeSYN            Type = 0
	TypeACK            Type = 1 // deprecated: never sent, ignored
	TypeRejected       Type = 2
	TypeKeepalive      Type = 3
	TypeWaitingData    Type = 4
	TypeGameStart      Type = 5
	TypeGameData       Type = 6
	TypeGameDataAck    Type = 7
	TypeDisconnect     Type = 8
	TypeDisconnectAck  Type = 9
	TypeReliableAck    Type = 10
	TypeGameDataResend Type = 11
	TypeConsoleMessage Type = 12
	TypeQuery          Type = 13
	TypeQueryResponse  Type = 14
	TypeLaunch         Type = 15
	TypeNATHolePunch   Type = 16

	// TypeTicnet carries the messages of ticnet's extension protocol. The
	// reference ignores a type it does not know, and only a peer that
	// negotiated ProtocolTicnet is ever sent one.
	TypeTicnet Type = 0x70
)

// ReliableFlag is bit 15 of the type field: a sequence byte follows.
const ReliableFlag = 0x8000

var typeNames = [...]string{
	TypeSYN: "SYN", TypeACK: "ACK", TypeRejected: "REJECTED", TypeKeepalive: "KEEPALIVE",
	TypeWaitingData: "WAITING_DATA", TypeGameStart: "GAMESTART", TypeGameData: "GAMEDATA",
	TypeGameDataAck: "GAMEDATA_ACK", TypeDisconnect: "DISCONNECT", TypeDisconnectAck: "DISCONNECT_ACK",
	TypeReliableAck: "RELIABLE_ACK", TypeGameDataResend: "GAMEDATA_RESEND",
	TypeConsoleMessage: "CONSOLE_MESSAGE", TypeQuery: "QUERY", TypeQueryResponse: "QUERY_RESPONSE",
	TypeLaunch: "LAUNCH", TypeNATHolePunch: "NAT_HOLE_PUNCH",
}

func (t Type) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	if t == TypeTicnet {
		return "TICNET"
	}
	return "TYPE_" + strconv.Itoa(int(t))
}

// Direction says who sent a packet. GAMEDATA and LAUNCH have a different
// layout in each direction, so a decoder that does not know the type in
// advance needs it.
type Direction uint8

const (
	ClientToServer Direction = iota
	ServerToClient
)

func (d Direction) String() string {
	if d == ServerToClient {
		return "S>C"
	}
	return "C>S"
}

// Header is the start of every packet: the type, and for a reliable packet
// its sequence number.
type Header struct {
	Type     Type
	Reliable bool
	Seq      uint8 // meaningful only when Reliable
}

// Len is the header's length on the wire: 2 bytes, 3 when reliable.
func (h Header) Len() int {
	if h.Reliable {
		return 3
	}
	return 2
}

// AppendTo appends the header to dst.
func (h Header) AppendTo(dst []byte) []byte {
	t := uint16(h.Type)
	if h.Reliable {
		return append(dst, byte(t>>8)|0x80, byte(t), h.Seq)
	}
	return append(dst, byte(t>>8), byte(t))
}

// ParseHeader reads the header of pkt and returns it with the body.
func ParseHeader(pkt []byte) (Header, []byte, error) {
	r := NewReader(pkt, 0)
	v := r.U16("type")
	h := Header{Type: Type(v &^ ReliableFlag), Reliable: v&ReliableFlag != 0}
	if h.Reliable {
		h.Seq = r.U8("reliable_seq")
	}
	if err := r.Err(); err != nil {
		return Header{}, nil, err
	}
	return h, pkt[h.Len():], nil
}

// Message is one message of the protocol. AppendBody writes it after the
// header; DecodeBody reads it from the body, replacing every field (slices
// are reused, so decoding into the same value again allocates nothing).
// Offsets in DecodeBody's errors count from the start of the body.
type Message interface {
	Type() Type
	AppendBody(dst []byte) []byte
	DecodeBody(body []byte) error
}

// Encode appends a whole packet carrying m to dst. seq is used only when
// reliable is true.
func Encode(dst []byte, m Message, reliable bool, seq uint8) []byte {
	dst = Header{Type: m.Type(), Reliable: reliable, Seq: seq}.AppendTo(dst)
	return m.AppendBody(dst)
}

// Decode reads a whole packet into m and returns its header. It fails if the
// packet's type is not m's.
func Decode(pkt []byte, m Message) (Header, error) {
	h, body, err := ParseHeader(pkt)
	if err != nil {
		return h, err
	}
	if h.Type != m.Type() {
		return h, &DecodeError{Type: m.Type().String(), Offset: 0, Field: "type",
			Reason: "packet is " + h.Type.String()}
	}
	if err := m.DecodeBody(body); err != nil {
		return h, shift(err, m.Type(), h.Len())
	}
	return h, nil
}

// shift makes a body-relative DecodeError packet-relative and names the type.
func shift(err error, t Type, by int) error {
	if de, ok := err.(*DecodeError); ok {
		c := *de
		c.Offset += by
		if c.Type == "" {
			c.Type = t.String()
		}
		return &c
	}
	return err
}

// bodyErr finishes a body decode: it names the message in r's error.
func bodyErr(r *Reader, t Type) error {
	if r.err == nil {
		return nil
	}
	if r.err.Type == "" {
		r.err.Type = t.String()
	}
	return r.err
}
