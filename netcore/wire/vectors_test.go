package wire

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// vector is one annotated packet of shared/spec/vectors.
type vector struct {
	file, name string
	dir        Direction
	pkt        []byte
	fields     []annotation
}

type annotation struct {
	offset int
	field  string
	value  string
}

// vectorsDir finds shared/spec/vectors beside the repository.
func vectorsDir(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "spec", "vectors")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the test vectors are missing (%v): CI clones ../shared beside the repository", err)
	}
	return dir
}

func loadVectors(t testing.TB) []vector {
	dir := vectorsDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "vectors-*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vector files in %s", dir)
	}
	var vs []vector
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		var cur *vector
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "### packet"):
				vs = append(vs, vector{file: filepath.Base(f), name: line})
				cur = &vs[len(vs)-1]
				cur.dir = ClientToServer
				if strings.Contains(line, "server:2342 ->") {
					cur.dir = ServerToClient
				}
			case strings.HasPrefix(line, "HEX "):
				if cur.pkt, err = hex.DecodeString(strings.TrimSpace(line[4:])); err != nil {
					t.Fatalf("%s: %v", cur.name, err)
				}
			case strings.HasPrefix(line, "  @"):
				cur.fields = append(cur.fields, parseAnnotation(t, line))
			}
		}
	}
	return vs
}

// parseAnnotation reads "  @off  bytes...  field(type)  value".
func parseAnnotation(t testing.TB, line string) annotation {
	off, err := strconv.Atoi(strings.Fields(line[3:])[0])
	if err != nil {
		t.Fatalf("bad offset in %q", line)
	}
	rest := strings.TrimLeft(line[32:], " ")
	// The field name ends at the first space outside parentheses.
	end, depth := len(rest), 0
	if strings.HasPrefix(rest, "ack = ") {
		end = len("ack = recvwindow_start&0xff")
	} else {
		for i, c := range rest {
			if c == '(' {
				depth++
			} else if c == ')' {
				depth--
			} else if c == ' ' && depth == 0 {
				end = i
				break
			}
		}
	}
	return annotation{offset: off, field: rest[:end], value: strings.TrimSpace(rest[end:])}
}

// annotate renders a decoded packet's fields the way the vectors annotate
// them. Byte-array fields render as "" and are checked against the packet.
func annotate(h Header, m Message) map[string]string {
	a := map[string]string{}
	typ := fmt.Sprintf("%d %s", h.Type, h.Type)
	if h.Reliable {
		typ += " |RELIABLE(0x8000)"
		a["reliable_seq(u8)"] = fmt.Sprint(h.Seq)
	}
	a["type(u16 BE)"] = typ
	d := func(k string, v any) { a[k] = fmt.Sprint(v) }
	switch m := m.(type) {
	case *SYN:
		d("magic(u32 BE)", m.Magic)
		d("client_version", m.Version)
		d("num_protocols", len(m.Protocols))
		for i, p := range m.Protocols {
			d(fmt.Sprintf("protocol[%d]", i), p)
		}
		c := m.Connect
		d("gamemode", c.GameMode)
		d("gamemission", c.GameMission)
		d("lowres_turn", b2u(c.LowResTurn))
		d("drone", b2u(c.Drone))
		d("max_players", c.MaxPlayers)
		d("is_freedoom", c.IsFreedoom)
		d("player_class", c.PlayerClass)
		d("player_name", m.PlayerName)
	case *SYNReply:
		d("server_version", m.Version)
		d("protocol", m.Protocol)
	case *WaitingData:
		d("num_players", m.NumPlayers)
		d("num_drones", m.NumDrones)
		d("ready_players", m.ReadyPlayers)
		d("max_players", m.MaxPlayers)
		d("is_controller", b2u(m.IsController))
		d("consoleplayer(s8)", m.ConsolePlayer)
		for i, p := range m.Players {
			d(fmt.Sprintf("player_name[%d]", i), p.Name)
			d(fmt.Sprintf("player_addr[%d]", i), p.Addr)
		}
		d("is_freedoom", m.IsFreedoom)
	case *Launch:
		d("num_players", m.NumPlayers)
	case *GameStart:
		s := m.Settings
		for k, v := range map[string]any{"ticdup": s.TicDup, "extratics": s.ExtraTics, "deathmatch": s.Deathmatch,
			"nomonsters": s.NoMonsters, "fast_monsters": s.FastMonsters, "respawn_monsters": s.RespawnMonsters,
			"episode": s.Episode, "map": s.Map, "skill(s8)": s.Skill, "gameversion": s.GameVersion,
			"lowres_turn": b2u(s.LowResTurn), "new_sync": b2u(s.NewSync), "timelimit(u32 BE)": s.TimeLimit,
			"loadgame(s8)": s.LoadGame, "random": s.Random, "num_players": s.NumPlayers, "consoleplayer(s8)": s.ConsolePlayer} {
			d(k, v)
		}
		for i := range int(s.NumPlayers) {
			d(fmt.Sprintf("player_classes[%d]", i), s.PlayerClasses[i])
		}
	case *GameDataResend:
		d("start_tic(u32 BE, full)", m.Start)
		d("num_tics", m.Count)
	case *GameDataAck:
		d("ack(u8)", m.Ack)
	case *ReliableAck:
		d("ack(u8)", m.Ack)
	case *ConsoleMessage:
		d("message", m.Text)
	case *ClientGameData:
		d("ack = recvwindow_start&0xff", m.Ack)
		d("start_tic&0xff", m.Start)
		d("num_tics", len(m.Tics))
		for i, tic := range m.Tics {
			d(fmt.Sprintf("tic[%d].latency(s16 BE)", i), tic.Latency)
			annotateDiff(a, fmt.Sprintf("tic[%d].", i), &tic.Diff, m.LowResTurn)
		}
	case *ServerGameData:
		d("start_tic&0xff", m.Start)
		d("num_tics", len(m.Tics))
		for i, tic := range m.Tics {
			d(fmt.Sprintf("tic[%d].latency(s16 BE)", i), tic.Latency)
			d(fmt.Sprintf("tic[%d].playeringame_bits", i), tic.InGame)
			for p := range MaxPlayers {
				if tic.Has(p) {
					annotateDiff(a, fmt.Sprintf("tic[%d].player%d.", i, p), &tic.Cmds[p], m.LowResTurn)
				}
			}
		}
	}
	return a
}

func annotateDiff(a map[string]string, prefix string, df *TicDiff, lowres bool) {
	a[prefix+"diff_flags"] = fmt.Sprint(df.Flags)
	c := df.Cmd
	f := df.Flags
	if f&DiffForward != 0 {
		a[prefix+"forwardmove(s8)"] = fmt.Sprint(c.ForwardMove)
	}
	if f&DiffSide != 0 {
		a[prefix+"sidemove(s8)"] = fmt.Sprint(c.SideMove)
	}
	if f&DiffTurn != 0 {
		if lowres {
			a[prefix+"angleturn(lowres s8, x256)"] = fmt.Sprintf("%d -> %d", c.AngleTurn/256, c.AngleTurn)
		} else {
			a[prefix+"angleturn(s16 BE)"] = fmt.Sprint(c.AngleTurn)
		}
	}
	if f&DiffButtons != 0 {
		a[prefix+"buttons(u8)"] = fmt.Sprint(c.Buttons)
	}
	if f&DiffConsistency != 0 {
		a[prefix+"consistancy(u8)"] = fmt.Sprint(c.Consistency)
	}
	if f&DiffChatChar != 0 {
		a[prefix+"chatchar(u8)"] = fmt.Sprint(c.ChatChar)
	}
}

func TestEveryVectorDecodesToItsAnnotationsAndEncodesBackExactly(t *testing.T) {
	vs := loadVectors(t)
	fields := 0
	for _, v := range vs {
		lowres := strings.Contains(v.file, "lowres")
		h, m, err := DecodePacket(v.pkt, v.dir, lowres)
		if err != nil {
			t.Fatalf("%s %s: %v", v.file, v.name, err)
		}
		got := annotate(h, m)
		for _, an := range v.fields {
			if strings.HasSuffix(an.field, "_sha1[20]") {
				// Raw digest bytes: compare the decoded array with the packet.
				var sha [20]byte
				switch mm := m.(type) {
				case *SYN:
					sha = map[bool][20]byte{true: mm.Connect.WADSHA1, false: mm.Connect.DEHSHA1}[strings.HasPrefix(an.field, "wad")]
				case *WaitingData:
					sha = map[bool][20]byte{true: mm.WADSHA1, false: mm.DEHSHA1}[strings.HasPrefix(an.field, "wad")]
				default:
					t.Fatalf("%s: %s in a %T", v.name, an.field, m)
				}
				if !bytes.Equal(sha[:], v.pkt[an.offset:an.offset+20]) {
					t.Fatalf("%s: %s decoded as % x", v.name, an.field, sha)
				}
				fields++
				continue
			}
			want, ok := got[an.field]
			if !ok {
				t.Fatalf("%s: annotated field %q is not checked by this test (decoded %T)", v.name, an.field, m)
			}
			if an.value != want {
				t.Fatalf("%s: %s = %q, decoded %q", v.name, an.field, an.value, want)
			}
			fields++
		}
		again := Encode(nil, m, h.Reliable, h.Seq)
		if !bytes.Equal(again, v.pkt) {
			t.Fatalf("%s: re-encoded\n% x\nwant\n% x", v.name, again, v.pkt)
		}
	}
	if len(vs) != 30 {
		t.Fatalf("read %d annotated packets, the vector files hold 30", len(vs))
	}
	t.Logf("%d packets, %d annotated fields checked; every packet re-encodes to its bytes", len(vs), fields)
}
