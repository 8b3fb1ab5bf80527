package main

import (
	"fmt"
	"io"
	"math/bits"
	"strings"

	"github.com/ticnet/ticnet/netcore/wire"
)

// summary is what info says of a replay.
type summary struct {
	header      wire.ReplayHeader
	headerBytes int
	tics        int
	first, last uint32
	commands    int // players in the game, summed over the tics
	substituted int
	changes     []inGame // who was in the game from which tic
	snapshots   int
	snapBytes   int
	sums        int
	playerSums  int
}

type inGame struct {
	tic uint32
	in  uint8
}

// maxChanges bounds the changes of players info lists.
const maxChanges = 20

func summarize(data []byte) (*summary, error) {
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return nil, err
	}
	s := &summary{header: r.Header, headerBytes: len(data)}
	err = eachRecord(data, func(r *wire.ReplayRecord) error {
		s.headerBytes = min(s.headerBytes, r.Offset)
		if r.IsSnapshot() {
			s.snapshots++
			s.snapBytes += 1 + 4 + 4 + len(r.State) // tag, tic, length, state
			return nil
		}
		t := &r.Tic
		if s.tics == 0 {
			s.first = t.Tic
		}
		if len(s.changes) == 0 || s.changes[len(s.changes)-1].in != t.InGame {
			s.changes = append(s.changes, inGame{t.Tic, t.InGame})
		}
		s.tics++
		s.last = t.Tic
		s.commands += bits.OnesCount8(t.InGame)
		s.substituted += bits.OnesCount8(t.Substituted & t.InGame)
		if t.HasSum {
			s.sums++
		}
		if t.HasPlayerSums {
			s.playerSums++
		}
		return nil
	})
	return s, err
}

// info prints what replay file path, data, holds.
func info(w io.Writer, path string, data []byte) error {
	s, err := summarize(data)
	if err != nil {
		return err
	}
	h := &s.header
	st := &h.Settings
	fmt.Fprintf(w, "replay      %s: %d bytes, format version %d\n", path, len(data), wire.ReplayVersion)
	fmt.Fprintf(w, "protocol    %s\n", h.Protocol)
	fmt.Fprintf(w, "game        episode %d, map %d, skill %d, deathmatch %d, nomonsters %d, fast %d, respawn %d, "+
		"timelimit %d, ticdup %d, extratics %d, lowres_turn %v, game version byte %d\n",
		st.Episode, st.Map, st.Skill, st.Deathmatch, st.NoMonsters, st.FastMonsters, st.RespawnMonsters,
		st.TimeLimit, st.TicDup, st.ExtraTics, st.LowResTurn, st.GameVersion)
	input := "Doom's ticcmd"
	if h.Setup.Input.Opaque() {
		input = fmt.Sprintf("opaque, %d bytes", h.Setup.Input.Size)
	}
	fmt.Fprintf(w, "setup       input %s, %d tics/s, seed %d, launch options %d bytes\n", input, h.Setup.TicRate,
		h.Setup.Seed, len(h.Setup.Options))
	var names []string
	for p, n := range h.Names {
		names = append(names, fmt.Sprintf("%d %q", p, n))
	}
	fmt.Fprintf(w, "players     %s\n", strings.Join(names, ", "))
	if s.tics == 0 {
		fmt.Fprintf(w, "tics        none, from tic %d\n", h.Start)
	} else {
		fmt.Fprintf(w, "tics        %d: %d to %d (%.1f s at %d tics/s)\n", s.tics, s.first, s.last,
			float64(s.tics)*float64(max(st.TicDup, 1))/float64(max(h.Setup.TicRate, 1)), h.Setup.TicRate)
	}
	for i, c := range s.changes {
		label := ""
		if i == 0 {
			label = "in game"
		}
		if i == maxChanges {
			fmt.Fprintf(w, "            ... %d more changes\n", len(s.changes)-maxChanges)
			break
		}
		fmt.Fprintf(w, "%-11s from tic %d: %s\n", label, c.tic, playerList(c.in))
	}
	fmt.Fprintf(w, "substituted %d commands\n", s.substituted)
	fmt.Fprintf(w, "snapshots   %d (%d bytes)\n", s.snapshots, s.snapBytes)
	switch {
	case s.sums == 0:
		fmt.Fprintf(w, "checksums   none\n")
	default:
		fmt.Fprintf(w, "checksums   %d, every %d tics; each player's with %d of them\n", s.sums, h.SumEvery, s.playerSums)
	}
	fmt.Fprintf(w, "bytes       header %d, tics %d, snapshots %d", s.headerBytes, len(data)-s.headerBytes-s.snapBytes, s.snapBytes)
	if s.commands > 0 {
		fmt.Fprintf(w, "; %.2f per tic, %.2f per tic per player (the file over %d tics, %d commands)",
			float64(len(data))/float64(s.tics), float64(len(data))/float64(s.commands), s.tics, s.commands)
	}
	fmt.Fprintln(w)
	return nil
}

// playerList names the players of mask in.
func playerList(in uint8) string {
	if in == 0 {
		return "nobody"
	}
	var ps []string
	for p := range wire.MaxPlayers {
		if in&(1<<p) != 0 {
			ps = append(ps, fmt.Sprint(p))
		}
	}
	return "players " + strings.Join(ps, " ")
}
