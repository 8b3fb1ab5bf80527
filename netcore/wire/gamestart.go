package wire

import "strconv"

// Settings are a game's settings, net_gamesettings_t (spec §7.2).
type Settings struct {
	TicDup          uint8
	ExtraTics       uint8
	Deathmatch      uint8 // 0, 1, 2 (altdeath)
	NoMonsters      uint8
	FastMonsters    uint8
	RespawnMonsters uint8
	Episode         uint8
	Map             uint8
	Skill           int8  // -1 .. 4
	GameVersion     uint8 // numbering depends on the peer's version: see GameVersion
	LowResTurn      bool
	NewSync         bool
	TimeLimit       uint32 // minutes
	LoadGame        int8   // -1: none
	Random          uint8  // Strife only; Doom leaves it uninitialised, so any value is carried
	NumPlayers      uint8
	ConsolePlayer   int8 // the recipient's player number, -1 for a drone
	PlayerClasses   [MaxPlayers]uint8
}

// GameStart carries the settings: from a client it means "ready", from the
// server "the game starts now" (type 5, sent reliable both ways).
type GameStart struct {
	Settings Settings
}

func (*GameStart) Type() Type { return TypeGameStart }

func (m *GameStart) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	appendSettings(&w, &m.Settings)
	return w.Buf
}

func (m *GameStart) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	readSettings(&r, &m.Settings)
	return bodyErr(&r, TypeGameStart)
}

// appendSettings writes net_gamesettings_t.
func appendSettings(w *Writer, s *Settings) {
	w.U8(s.TicDup)
	w.U8(s.ExtraTics)
	w.U8(s.Deathmatch)
	w.U8(s.NoMonsters)
	w.U8(s.FastMonsters)
	w.U8(s.RespawnMonsters)
	w.U8(s.Episode)
	w.U8(s.Map)
	w.S8(s.Skill)
	w.U8(s.GameVersion)
	w.U8(b2u(s.LowResTurn))
	w.U8(b2u(s.NewSync))
	w.U32(s.TimeLimit)
	w.S8(s.LoadGame)
	w.U8(s.Random)
	n := min(int(s.NumPlayers), MaxPlayers)
	w.U8(uint8(n))
	w.S8(s.ConsolePlayer)
	w.Bytes(s.PlayerClasses[:n])
}

// readSettings reads net_gamesettings_t.
func readSettings(r *Reader, s *Settings) {
	s.TicDup = r.U8("ticdup")
	s.ExtraTics = r.U8("extratics")
	s.Deathmatch = r.U8("deathmatch")
	s.NoMonsters = r.U8("nomonsters")
	s.FastMonsters = r.U8("fast_monsters")
	s.RespawnMonsters = r.U8("respawn_monsters")
	s.Episode = r.U8("episode")
	s.Map = r.U8("map")
	s.Skill = r.S8("skill")
	s.GameVersion = r.U8("gameversion")
	s.LowResTurn = r.U8("lowres_turn") != 0
	s.NewSync = r.U8("new_sync") != 0
	s.TimeLimit = r.U32("timelimit")
	s.LoadGame = r.S8("loadgame")
	s.Random = r.U8("random")
	numAt := r.Offset()
	s.NumPlayers = r.U8("num_players")
	s.ConsolePlayer = r.S8("consoleplayer")
	s.PlayerClasses = [MaxPlayers]uint8{}
	if int(s.NumPlayers) > MaxPlayers {
		r.failAt(numAt, "num_players", strconv.Itoa(int(s.NumPlayers))+" players > limit "+strconv.Itoa(MaxPlayers))
	} else {
		r.Bytes(s.PlayerClasses[:s.NumPlayers], "player_classes")
	}
}
