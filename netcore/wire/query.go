package wire

// Server states as QUERY_RESPONSE reports them (spec §10.1).
const (
	ServerWaitingLaunch = 0
	ServerWaitingStart  = 1
	ServerInGame        = 2
)

// QueryResponse describes a server to anyone who sent QUERY (type 14).
type QueryResponse struct {
	Version     string
	State       uint8 // ServerWaitingLaunch, ServerWaitingStart or ServerInGame
	NumPlayers  uint8
	MaxPlayers  uint8
	GameMode    uint8
	GameMission uint8
	Description string
	// Protocols is optional on the wire (3.0+). HasProtocols says whether
	// the list is there at all, so that a packet without one re-encodes
	// without one.
	HasProtocols bool
	Protocols    []string
}

func (*QueryResponse) Type() Type { return TypeQueryResponse }

func (m *QueryResponse) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.String(m.Version)
	w.U8(m.State)
	w.U8(m.NumPlayers)
	w.U8(m.MaxPlayers)
	w.U8(m.GameMode)
	w.U8(m.GameMission)
	w.String(m.Description)
	if m.HasProtocols {
		w.U8(uint8(len(m.Protocols)))
		for _, p := range m.Protocols {
			w.String(p)
		}
	}
	return w.Buf
}

func (m *QueryResponse) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Version = r.String("version")
	m.State = r.U8("server_state")
	m.NumPlayers = r.U8("num_players")
	m.MaxPlayers = r.U8("max_players")
	m.GameMode = r.U8("gamemode")
	m.GameMission = r.U8("gamemission")
	m.Description = r.String("description")
	m.HasProtocols = r.err == nil && r.Remaining() > 0
	m.Protocols = m.Protocols[:0]
	if m.HasProtocols {
		m.Protocols = readProtocols(&r, m.Protocols)
	}
	return bodyErr(&r, TypeQueryResponse)
}
