package wire

// WaitingPlayer is one line of the lobby list in WAITING_DATA.
type WaitingPlayer struct {
	Name string
	Addr string
}

// WaitingData is the lobby state the server sends each client every second
// before the game starts (type 4, unreliable).
type WaitingData struct {
	NumPlayers    uint8 // connected non-drone clients
	NumDrones     uint8
	ReadyPlayers  uint8
	MaxPlayers    uint8
	IsController  bool            // the recipient is the controller
	ConsolePlayer int8            // the recipient's player number, -1 for a drone
	Players       []WaitingPlayer // min(NumPlayers, MaxPlayers) entries
	WADSHA1       [20]byte
	DEHSHA1       [20]byte
	IsFreedoom    uint8
}

func (*WaitingData) Type() Type { return TypeWaitingData }

// listed is how many player lines follow the counts.
func (m *WaitingData) listed() int { return min(int(m.NumPlayers), MaxPlayers) }

func (m *WaitingData) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(m.NumPlayers)
	w.U8(m.NumDrones)
	w.U8(m.ReadyPlayers)
	w.U8(m.MaxPlayers)
	w.U8(b2u(m.IsController))
	w.S8(m.ConsolePlayer)
	for i := 0; i < m.listed(); i++ {
		var p WaitingPlayer
		if i < len(m.Players) {
			p = m.Players[i]
		}
		w.String(p.Name)
		w.String(p.Addr)
	}
	w.Bytes(m.WADSHA1[:])
	w.Bytes(m.DEHSHA1[:])
	w.U8(m.IsFreedoom)
	return w.Buf
}

func (m *WaitingData) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.NumPlayers = r.U8("num_players")
	m.NumDrones = r.U8("num_drones")
	m.ReadyPlayers = r.U8("ready_players")
	m.MaxPlayers = r.U8("max_players")
	m.IsController = r.U8("is_controller") != 0
	m.ConsolePlayer = r.S8("consoleplayer")
	m.Players = m.Players[:0]
	for i := 0; i < m.listed() && r.err == nil; i++ {
		name := r.String("player_name")
		addr := r.String("player_addr")
		m.Players = append(m.Players, WaitingPlayer{Name: name, Addr: addr})
	}
	r.Bytes(m.WADSHA1[:], "wad_sha1")
	r.Bytes(m.DEHSHA1[:], "deh_sha1")
	m.IsFreedoom = r.U8("is_freedoom")
	return bodyErr(&r, TypeWaitingData)
}

// Truncate cuts a name or address to what the reference puts in
// WAITING_DATA: 29 bytes. A client ignores a lobby with a longer one.
func Truncate(s string) string {
	if len(s) >= MaxPlayerName {
		return s[:MaxPlayerName-1]
	}
	return s
}
