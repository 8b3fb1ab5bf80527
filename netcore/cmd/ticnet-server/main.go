// Command ticnet-server is a dedicated ticnet server on UDP: real Chocolate
// Doom 3.x clients (and ticnet clients) connect to it as to the reference's
// chocolate-server, and it relays their game in lockstep. A client that
// offers only CHOCOLATE_DOOM_0, as every real one does, gets the strict
// reference behaviour: the game waits for every player's command.
//
// Usage:
//
//	go run ./netcore/cmd/ticnet-server [-port 2342] [-addr 127.0.0.1]
//	    [-profile reference|browser] [-maxplayers 8] [-servername NAME]
//	    [-ticlog FILE] [-record FILE]
//
//	chocolate-doom -iwad freedoom2.wad -connect 127.0.0.1 -nodes 2   # a real client
//
// It logs to stderr: joins (name, address, player number, protocol),
// leaves with their reason (timed out, left), REJECTED and its reason, the
// launch and the game's start. -ticlog writes one JSON line for every tic
// the server lets go, saying which players were in the game and whose
// commands it had received: {"tic":12,"players":[0,1],"received":[0,1]}.
//
// -record FILE records every game played through the server as a ticnet
// replay (netcore/wire/replay.go), reference games with real Chocolate
// Doom clients included: for every tic the server lets go, every player's
// command as the server relays it, who was in the game, and which commands
// it substituted (extension protocol). The server runs no game, so its
// replays hold no checksums. The first game goes to FILE, the next ones to
// FILE with -2, -3, ... before its extension: -record game.replay writes
// game.replay, game-2.replay, game-3.replay; an existing file of that name
// is replaced. A game's file is written as the game runs, each pass's new
// tics at once, and closed when the game ends (or the server stops), so a
// killed server leaves a file that is whole up to its last tic. A game's
// recording stops at 32 MB (replay.DefaultMaxBytes: hours of play).
// Read a replay with ticnet-replay (info, verify, lmp).
// SIGINT or SIGTERM tells every client that the server is going away (the
// reference's DISCONNECT handshake, at most five seconds) and exits.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/tic"
)

func main() {
	port := flag.Int("port", netcore.DefaultPort, "UDP port to listen on")
	addr := flag.String("addr", "", "IPv4 address to listen on (default: every address)")
	profile := flag.String("profile", "reference", "timeouts: reference (30 s, for real Chocolate Doom) or browser (4 s)")
	maxPlayers := flag.Int("maxplayers", tic.MaxPlayers, "most players in a game, drones aside (1-8)")
	name := flag.String("servername", "", "description shown to QUERY (default \"Unnamed server\")")
	ticlog := flag.String("ticlog", "", "write which players' commands the server had for each tic to this file (JSON lines)")
	record := flag.String("record", "", "record every game as a replay: the first to this file, the next to FILE-2.ext, FILE-3.ext, ...")
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	log.SetPrefix("ticnet-server: ")
	if err := run(*addr, *port, *profile, *maxPlayers, *name, *ticlog, *record); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

// timeoutsNamed returns the timeouts -profile names.
func timeoutsNamed(name string) (netcore.Timeouts, error) {
	switch name {
	case "reference":
		return netcore.ReferenceTimeouts, nil
	case "browser":
		return netcore.BrowserTimeouts, nil
	}
	return netcore.Timeouts{}, fmt.Errorf("unknown profile %q (want reference or browser)", name)
}

func run(addr string, port int, profileName string, maxPlayers int, desc, ticlog, record string) error {
	timeouts, err := timeoutsNamed(profileName)
	if err != nil {
		return err
	}
	if maxPlayers < 1 || maxPlayers > tic.MaxPlayers {
		return fmt.Errorf("-maxplayers %d: want 1 to %d", maxPlayers, tic.MaxPlayers)
	}
	tr, err := netcore.ListenUDP(net.JoinHostPort(addr, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	defer tr.Close()
	var tl *ticLog
	if ticlog != "" {
		f, err := os.Create(ticlog)
		if err != nil {
			return err
		}
		tl = &ticLog{f: f, w: bufio.NewWriter(f)}
		defer tl.close()
	}
	var replays *replayFiles
	if record != "" {
		replays = &replayFiles{path: record}
		defer replays.finish()
	}
	srv := netcore.NewServer(netcore.ServerConfig{Timeouts: timeouts, MaxPlayers: maxPlayers, Description: desc,
		RecordTics: tl != nil, Replay: replay.ServerConfig{Record: replays != nil}}, tr)
	log.Printf("listening on %v (profile %s: %d ms timeout, %d ms keepalive; max %d players)",
		tr.LocalAddr(), timeouts.Name, timeouts.TimeoutMS, timeouts.KeepaliveMS, maxPlayers)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ticker := time.NewTicker(time.Millisecond)
	defer ticker.Stop()
	start := time.Now()
	var stopAt time.Time // when the shutdown gives up waiting for clients
	for {
		select {
		case <-ticker.C:
		case sig := <-sigs:
			if stopAt.IsZero() {
				log.Printf("%v: telling %d clients the server is going away", sig, srv.Clients())
				srv.Shutdown(time.Since(start).Milliseconds())
				stopAt = time.Now().Add(reliable.DisconnectRetries*reliable.DisconnectRetryMS*time.Millisecond + time.Second)
			}
		}
		now := time.Since(start).Milliseconds()
		events := srv.Update(now)
		if replays != nil {
			replays.update(srv.ReplayGame(), srv.Replay(), srv.ReplayStopped())
		}
		for _, e := range events {
			logEvent(tr, e, srv)
			if replays != nil && (e.Kind == netcore.EventGameEnded || e.Kind == netcore.EventDisconnected) {
				replays.finish()
			}
		}
		if tl != nil {
			if err := tl.write(srv.TicRecords()); err != nil {
				return err
			}
		}
		if !stopAt.IsZero() && (srv.Clients() == 0 || time.Now().After(stopAt)) {
			break
		}
	}
	c, u := srv.Counters(), tr.Stats()
	log.Printf("stopped: %d packets received (%d malformed, %d unexpected), %d sent, %d rejected; udp %+v",
		c.PacketsReceived, c.Malformed, c.Unexpected, c.PacketsSent, c.Rejected, u)
	return nil
}

func logEvent(tr *netcore.UDP, e netcore.Event, srv *netcore.Server) {
	switch e.Kind {
	case netcore.EventPlayerJoined:
		log.Printf("join: %q from %s, player %d, protocol %s", e.Name, tr.AddrString(e.Addr), e.Player, e.Protocol)
	case netcore.EventPlayerLeft:
		log.Printf("leave: %q from %s, player %d: %s", e.Name, tr.AddrString(e.Addr), e.Player, e.Reason)
	case netcore.EventRejected:
		log.Printf("REJECTED %s: %s", tr.AddrString(e.Addr), e.Reason)
	case netcore.EventLaunched:
		log.Printf("launch: %d players %q", len(srv.Players()), srv.Players())
	case netcore.EventGameStarted:
		s := srv.Settings()
		log.Printf("game start: protocol %s, %d players, episode %d map %d skill %d deathmatch %d nomonsters %d ticdup %d extratics %d",
			e.Protocol, s.NumPlayers, s.Episode, s.Map, s.Skill, s.Deathmatch, s.NoMonsters, s.TicDup, s.ExtraTics)
	case netcore.EventDisconnected:
		log.Printf("game over: %s", e.Reason)
	case netcore.EventDesyncSuspected:
		log.Printf("desync: players %v (%s) differ at tic %d: %s", e.Players, e.Name, e.Tic, e.Reason)
	default:
		log.Print(e)
	}
}

// ticLog writes the server's tic records as JSON lines, flushed as they
// come so that a reader sees every tic let go so far.
type ticLog struct {
	f *os.File
	w *bufio.Writer
}

type ticLine struct {
	Tic      uint32 `json:"tic"`
	Players  []int  `json:"players"`
	Received []int  `json:"received"`
}

func (l *ticLog) write(recs []netcore.TicRecord) error {
	if len(recs) == 0 {
		return nil
	}
	for _, r := range recs {
		b, _ := json.Marshal(ticLine{Tic: r.Tic, Players: bits(r.Players), Received: bits(r.Received)})
		l.w.Write(b)
		l.w.WriteByte('\n')
	}
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("ticlog: %w", err)
	}
	return nil
}

func (l *ticLog) close() {
	err := l.w.Flush()
	err = errors.Join(err, l.f.Close())
	if err != nil {
		log.Printf("ticlog: %v", err)
	}
}

func bits(b uint8) []int {
	s := []int{}
	for p := range tic.MaxPlayers {
		if b&(1<<p) != 0 {
			s = append(s, p)
		}
	}
	return s
}
