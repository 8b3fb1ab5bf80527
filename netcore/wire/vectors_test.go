package wire

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ticnet/ticnet/netcore/internal/specvectors"

	"github.com/stretchr/testify/require"
)

// The annotated packets of shared/spec/vectors, captured from the Debian
// build of Chocolate Doom (see the README there). Each file holds packets
// like
//
//	### packet #832  t=9.019s  client:50983 -> server:2342  len=13
//	HEX 0006c4c302000410120004103a
//	  @0   00 06                    type(u16 BE)                             6 GAMEDATA
//	  @2   c4                       ack = recvwindow_start&0xff              196
//
// with the field column 40 wide (longer names push the value right).

// vectorPacket is one annotated packet.
type vectorPacket struct {
	file   string
	line   int // of the ### header
	name   string
	dir    Direction
	pkt    []byte
	fields []vectorField
}

// vectorField is one "@offset bytes field value" line.
type vectorField struct {
	line   int
	offset int
	shown  []byte // the bytes column: at most 7 bytes
	cut    bool   // the bytes column ends in "...": the field is longer
	name   string
	value  string
}

func (v *vectorPacket) where() string { return fmt.Sprintf("%s:%d (%s)", v.file, v.line, v.name) }

var (
	vecHeaderRe = regexp.MustCompile(`^### packet #(\d+)\s+t=[0-9.]+s\s+(\S+) -> (\S+)\s+len=(\d+)\s*$`)
	vecHexRe    = regexp.MustCompile(`^HEX ([0-9a-f]+)\s*$`)
	vecOffsetRe = regexp.MustCompile(`^  @(\d+) +$`)
	vecBytesRe  = regexp.MustCompile(`^((?:[0-9a-f]{2} )*[0-9a-f]{2})( \.\.\.)?$`)
)

// vectorFile is what a vector file holds, as counted independently of the
// parser: the number of packet headers, HEX lines and annotation lines.
type vectorFile struct {
	name                  string
	headers, hexes, notes int
}

// loadVectors parses every vector file. Any line it does not understand is
// fatal, so that nothing in the files goes unchecked.
func loadVectors(t testing.TB) ([]vectorPacket, []vectorFile) {
	dir := specvectors.Dir(t) // fails saying so when ../shared is missing
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	require.NoError(t, err, "no vector files in %s (%v)", dir, err)
	require.NotEqual(t, 0, len(files), "no vector files in %s (%v)", dir, err)
	var vs []vectorPacket
	var counts []vectorFile
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		base := filepath.Base(f)
		lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
		c := vectorFile{name: base}
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "### packet"):
				c.headers++
			case strings.HasPrefix(l, "HEX "):
				c.hexes++
			case strings.HasPrefix(l, "  @"):
				c.notes++
			}
		}
		counts = append(counts, c)

		var cur *vectorPacket
		for i, l := range lines {
			ln := i + 1
			if strings.TrimSpace(l) == "" {
				continue
			}
			if m := vecHeaderRe.FindStringSubmatch(l); m != nil {
				vs = append(vs, vectorPacket{file: base, line: ln, name: "packet #" + m[1]})
				cur = &vs[len(vs)-1]
				src, dst := m[2], m[3]
				switch {
				case strings.HasPrefix(src, "client:") && dst == "server:2342":
					cur.dir = ClientToServer
				case src == "server:2342" && strings.HasPrefix(dst, "client:"):
					cur.dir = ServerToClient
				default:
					t.Fatalf("%s:%d: no direction in %q", base, ln, l)
				}
				n, _ := strconv.Atoi(m[4])
				cur.pkt = make([]byte, 0, n) // len= is checked against HEX below
				continue
			}
			require.NotNil(t, cur, "%s:%d: %q before any packet header", base, ln, l)
			if m := vecHexRe.FindStringSubmatch(l); m != nil {
				require.Equal(t, 0, len(cur.pkt), "%s:%d: a second HEX line", base, ln)
				want := cap(cur.pkt)
				cur.pkt, err = hex.DecodeString(m[1])
				require.NoError(t, err, "%s:%d", base, ln)
				require.Equal(t, want, len(cur.pkt), "%s:%d: HEX has %d bytes, the header says len=%d", base, ln, len(cur.pkt), want)
				continue
			}
			if strings.HasPrefix(l, "  @") {
				cur.fields = append(cur.fields, parseVectorField(t, base, ln, l))
				continue
			}
			t.Fatalf("%s:%d: line not understood: %q", base, ln, l)
		}
	}
	return vs, counts
}

// parseVectorField reads "  @off  bytes  field  value" by its columns:
// offset in [0,7), bytes in [7,32), field from 32, 40 wide, then the value.
func parseVectorField(t testing.TB, file string, ln int, l string) vectorField {
	require.GreaterOrEqual(t, len(l), 33, "%s:%d: annotation too short: %q", file, ln, l)
	om := vecOffsetRe.FindStringSubmatch(l[:7])
	bm := vecBytesRe.FindStringSubmatch(strings.TrimRight(l[7:32], " "))
	require.NotNil(t, om, "%s:%d: annotation columns not understood: %q", file, ln, l)
	require.NotNil(t, bm, "%s:%d: annotation columns not understood: %q", file, ln, l)
	require.Equal(t, byte(' '), l[31], "%s:%d: annotation columns not understood: %q", file, ln, l)
	f := vectorField{line: ln, cut: bm[2] != ""}
	f.offset, _ = strconv.Atoi(om[1])
	f.shown, _ = hex.DecodeString(strings.ReplaceAll(bm[1], " ", ""))
	rest := l[32:]
	switch {
	case len(rest) <= 40:
		f.name = strings.TrimRight(rest, " ")
	case rest[40] == ' ':
		f.name, f.value = strings.TrimRight(rest[:40], " "), rest[41:]
	default: // a name longer than the column: it ends at the next space
		i := strings.IndexByte(rest[40:], ' ')
		if i < 0 {
			f.name = rest
		} else {
			f.name, f.value = rest[:40+i], rest[40+i+1:]
		}
	}
	require.NotEqual(t, "", f.name, "%s:%d: no field name in %q", file, ln, l)
	require.False(t, strings.HasPrefix(f.name, " "), "%s:%d: no field name in %q", file, ln, l)
	return f
}

// fieldWant is what the decoder says an annotated field holds: its value as
// the vectors print it, and its bytes on the wire.
type fieldWant struct {
	text string
	wire []byte
}

func u8w(v uint8) []byte   { return []byte{v} }
func u16w(v uint16) []byte { return []byte{byte(v >> 8), byte(v)} }
func u32w(v uint32) []byte { return []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)} }
func strw(s string) []byte { return append([]byte(s), 0) }

// decodedFields maps every field name the vectors use to the decoded value.
// A field of the vectors that is not here fails the test.
func decodedFields(h Header, m Message) map[string]fieldWant {
	fs := map[string]fieldWant{}
	num := func(name string, v any, wire []byte) { fs[name] = fieldWant{fmt.Sprint(v), wire} }
	u8 := func(name string, v uint8) { num(name, v, u8w(v)) }
	s8 := func(name string, v int8) { num(name, v, u8w(uint8(v))) }
	str := func(name, v string) { fs[name] = fieldWant{v, strw(v)} }
	sha := func(name string, v [20]byte) { fs[name] = fieldWant{"", v[:]} }
	flag := func(name string, v bool) { u8(name, b2u(v)) }

	typ := fmt.Sprintf("%d %s", uint16(h.Type), h.Type)
	t16 := uint16(h.Type)
	if h.Reliable {
		typ += " |RELIABLE(0x8000)"
		t16 |= ReliableFlag
		u8("reliable_seq(u8)", h.Seq)
	}
	fs["type(u16 BE)"] = fieldWant{typ, u16w(t16)}

	switch m := m.(type) {
	case *SYN:
		num("magic(u32 BE)", m.Magic, u32w(m.Magic))
		str("client_version", m.Version)
		u8("num_protocols", uint8(len(m.Protocols)))
		for i, p := range m.Protocols {
			str(fmt.Sprintf("protocol[%d]", i), p)
		}
		c := &m.Connect
		u8("gamemode", c.GameMode)
		u8("gamemission", c.GameMission)
		flag("lowres_turn", c.LowResTurn)
		flag("drone", c.Drone)
		u8("max_players", c.MaxPlayers)
		u8("is_freedoom", c.IsFreedoom)
		sha("wad_sha1[20]", c.WADSHA1)
		sha("deh_sha1[20]", c.DEHSHA1)
		u8("player_class", c.PlayerClass)
		str("player_name", m.PlayerName)
	case *SYNReply:
		str("server_version", m.Version)
		str("protocol", m.Protocol)
	case *WaitingData:
		u8("num_players", m.NumPlayers)
		u8("num_drones", m.NumDrones)
		u8("ready_players", m.ReadyPlayers)
		u8("max_players", m.MaxPlayers)
		flag("is_controller", m.IsController)
		s8("consoleplayer(s8)", m.ConsolePlayer)
		for i, p := range m.Players {
			str(fmt.Sprintf("player_name[%d]", i), p.Name)
			str(fmt.Sprintf("player_addr[%d]", i), p.Addr)
		}
		sha("wad_sha1[20]", m.WADSHA1)
		sha("deh_sha1[20]", m.DEHSHA1)
		u8("is_freedoom", m.IsFreedoom)
	case *Launch:
		u8("num_players", m.NumPlayers)
	case *GameStart:
		s := &m.Settings
		u8("ticdup", s.TicDup)
		u8("extratics", s.ExtraTics)
		u8("deathmatch", s.Deathmatch)
		u8("nomonsters", s.NoMonsters)
		u8("fast_monsters", s.FastMonsters)
		u8("respawn_monsters", s.RespawnMonsters)
		u8("episode", s.Episode)
		u8("map", s.Map)
		s8("skill(s8)", s.Skill)
		u8("gameversion", s.GameVersion)
		flag("lowres_turn", s.LowResTurn)
		flag("new_sync", s.NewSync)
		num("timelimit(u32 BE)", s.TimeLimit, u32w(s.TimeLimit))
		s8("loadgame(s8)", s.LoadGame)
		u8("random", s.Random)
		u8("num_players", s.NumPlayers)
		s8("consoleplayer(s8)", s.ConsolePlayer)
		for i := range int(s.NumPlayers) {
			u8(fmt.Sprintf("player_classes[%d]", i), s.PlayerClasses[i])
		}
	case *GameDataResend:
		num("start_tic(u32 BE, full)", m.Start, u32w(m.Start))
		u8("num_tics", m.Count)
	case *GameDataAck:
		u8("ack(u8)", m.Ack)
	case *ReliableAck:
		u8("ack(u8)", m.Ack)
	case *ConsoleMessage:
		str("message", m.Text)
	case *Rejected:
		str("message", m.Message)
	case *ClientGameData:
		u8("ack = recvwindow_start&0xff", m.Ack)
		u8("start_tic&0xff", m.Start)
		u8("num_tics", uint8(len(m.Tics)))
		for i := range m.Tics {
			tic := &m.Tics[i]
			num(fmt.Sprintf("tic[%d].latency(s16 BE)", i), tic.Latency, u16w(uint16(tic.Latency)))
			diffFields(fs, fmt.Sprintf("tic[%d].", i), &tic.Diff, m.LowResTurn)
		}
	case *ServerGameData:
		u8("start_tic&0xff", m.Start)
		u8("num_tics", uint8(len(m.Tics)))
		for i := range m.Tics {
			tic := &m.Tics[i]
			num(fmt.Sprintf("tic[%d].latency(s16 BE)", i), tic.Latency, u16w(uint16(tic.Latency)))
			u8(fmt.Sprintf("tic[%d].playeringame_bits", i), tic.InGame)
			for p := range MaxPlayers {
				if tic.Has(p) {
					diffFields(fs, fmt.Sprintf("tic[%d].player%d.", i, p), &tic.Cmds[p], m.LowResTurn)
				}
			}
		}
	}
	return fs
}

// diffFields maps the fields of one ticcmd diff; only flagged fields are on
// the wire, so only those are mapped.
func diffFields(fs map[string]fieldWant, prefix string, d *TicDiff, lowres bool) {
	num := func(name string, v any, wire []byte) { fs[prefix+name] = fieldWant{fmt.Sprint(v), wire} }
	c, f := &d.Cmd, d.Flags
	num("diff_flags", f, u8w(f))
	if f&DiffForward != 0 {
		num("forwardmove(s8)", c.ForwardMove, u8w(uint8(c.ForwardMove)))
	}
	if f&DiffSide != 0 {
		num("sidemove(s8)", c.SideMove, u8w(uint8(c.SideMove)))
	}
	if f&DiffTurn != 0 {
		if lowres {
			b := int8(int(c.AngleTurn) / 256)
			fs[prefix+"angleturn(lowres s8, x256)"] = fieldWant{fmt.Sprintf("%d -> %d", b, c.AngleTurn), u8w(uint8(b))}
		} else {
			num("angleturn(s16 BE)", c.AngleTurn, u16w(uint16(c.AngleTurn)))
		}
	}
	if f&DiffButtons != 0 {
		num("buttons(u8)", c.Buttons, u8w(c.Buttons))
	}
	if f&DiffConsistency != 0 {
		num("consistancy(u8)", c.Consistency, u8w(c.Consistency))
	}
	if f&DiffChatChar != 0 {
		num("chatchar(u8)", c.ChatChar, u8w(c.ChatChar))
	}
	if f&DiffRaven != 0 {
		num("lookfly(u8)", c.LookFly, u8w(c.LookFly))
		num("arti(u8)", c.Arti, u8w(c.Arti))
	}
	if f&DiffStrife != 0 {
		num("buttons2(u8)", c.Buttons2, u8w(c.Buttons2))
		num("inventory(u16 BE)", c.Inventory, u16w(c.Inventory))
	}
}

// isLowresVector says whether a vector file's game had lowres_turn set: its
// GAMEDATA has one-byte turning.
func isLowresVector(file string) bool { return file == "vectors-run4-lowres.txt" }

func TestEveryVectorPacketDecodesToEveryAnnotatedFieldAndReencodesToItsBytes(t *testing.T) {
	vs, files := loadVectors(t)
	wantPackets, wantFields := 0, 0
	for _, f := range files {
		require.Equal(t, f.hexes, f.headers, "%s: %d packet headers but %d HEX lines", f.name, f.headers, f.hexes)
		wantPackets += f.headers
		wantFields += f.notes
	}
	sawLowres := false
	packets, fields := 0, 0
	for i := range vs {
		v := &vs[i]
		lowres := isLowresVector(v.file)
		h, m, err := DecodePacket(v.pkt, v.dir, lowres)
		require.NoError(t, err, "%s", v.where())
		if lowres && h.Type == TypeGameData {
			sawLowres = true
		}
		got := decodedFields(h, m)
		ends := 0 // the fields must tile the packet: each starts where the one before ended
		require.NotEqual(t, 0, len(v.fields), "%s: no annotations", v.where())
		for _, f := range v.fields {
			at := fmt.Sprintf("%s:%d %s", v.file, f.line, f.name)
			w, ok := got[f.name]
			require.True(t, ok, "%s: annotated field is not mapped to the decoded %T, so it would go unchecked", at, m)
			require.Equal(t, w.text, f.value, "%s: annotated %q, decoded %q", at, f.value, w.text)
			require.Equal(t, ends, f.offset, "%s: annotated at offset %d, the decoded fields before it end at %d", at, f.offset, ends)
			end := f.offset + len(w.wire)
			require.LessOrEqual(t, end, len(v.pkt), "%s: decoded value is % x on the wire, the packet has % x at @%d", at, w.wire, v.pkt[f.offset:min(end, len(v.pkt))], f.offset)
			require.Equal(t, w.wire, v.pkt[f.offset:end], "%s: decoded value is % x on the wire, the packet has % x at @%d", at, w.wire, v.pkt[f.offset:min(end, len(v.pkt))], f.offset)
			require.True(t, bytes.HasPrefix(w.wire, f.shown), "%s: the bytes column % x (cut %v) does not show the decoded field % x", at, f.shown, f.cut, w.wire)
			require.Equal(t, (len(w.wire) > len(f.shown)), f.cut, "%s: the bytes column % x (cut %v) does not show the decoded field % x", at, f.shown, f.cut, w.wire)
			ends = end
			fields++
		}
		require.Equal(t, len(v.pkt), ends, "%s: the annotated fields end at %d of %d bytes", v.where(), ends, len(v.pkt))
		again := Encode(nil, m, h.Reliable, h.Seq)
		require.Equal(t, v.pkt, again, "%s: re-encoded", v.where())
		// Decoding into a value of the concrete type gives the same.
		m2 := fresh(m)
		h2, err := Decode(v.pkt, m2)
		require.NoError(t, err, "%s: Decode into %T gave %+v", v.where(), m2, m2)
		require.Equal(t, h, h2, "%s: Decode into %T gave %+v, %v", v.where(), m2, m2, err)
		require.True(t, sameMessage(m, m2), "%s: Decode into %T gave %+v, %v", v.where(), m2, m2, err)
		packets++
	}
	require.True(t, sawLowres, "no lowres GAMEDATA among the vectors: vectors-run4-lowres.txt went missing")
	require.NotEqual(t, 0, packets, "checked %d packets, the files hold %d packet headers", packets, wantPackets)
	require.Equal(t, wantPackets, packets, "checked %d packets, the files hold %d packet headers", packets, wantPackets)
	require.Equal(t, len(vs), packets, "checked %d packets, the files hold %d packet headers", packets, wantPackets)
	require.Equal(t, wantFields, fields, "checked %d fields, the files hold %d annotation lines", fields, wantFields)
	t.Logf("%d files, %d packets, %d annotated fields checked; every packet re-encodes to its bytes", len(files), packets, fields)
}

func TestLowresVectorsDecodedAsHiresGiveOtherTurning(t *testing.T) {
	// The lowres flag is not on the wire: decoding a lowres GAMEDATA as hi-res
	// must not silently give the same commands (so the vector test above
	// really depends on it).
	vs, _ := loadVectors(t)
	differ := 0
	for i := range vs {
		v := &vs[i]
		if !isLowresVector(v.file) || !slices.Equal(v.pkt[:2], []byte{0, byte(TypeGameData)}) {
			continue
		}
		_, lo, err := DecodePacket(v.pkt, v.dir, true)
		require.NoError(t, err, "%s", v.where())
		_, hi, err := DecodePacket(v.pkt, v.dir, false)
		if err != nil || !sameMessage(normalizeLowres(hi), normalizeLowres(lo)) {
			differ++
		}
	}
	require.NotEqual(t, 0, differ, "every lowres GAMEDATA decodes the same as hi-res")
}

// normalizeLowres clears the LowResTurn option so that only wire content is
// compared.
func normalizeLowres(m Message) Message {
	switch v := m.(type) {
	case *ClientGameData:
		c := *v
		c.LowResTurn = false
		return &c
	case *ServerGameData:
		c := *v
		c.LowResTurn = false
		return &c
	}
	return m
}
