// Command ticnet-client is a scripted client for a Chocolate Doom 3.x or
// ticnet server on UDP, for tests and for people probing a server. It
// connects (optionally as a drone), can act as the controller and launch
// with given settings once enough nodes are in the lobby, sends idle,
// scripted, random or "doom" commands, and writes every tic it runs, with
// every player's command, as JSON lines.
//
// Usage:
//
//	go run ./netcore/cmd/ticnet-client -server 127.0.0.1:2342 [-name NAME] [-drone]
//	    [-iwad freedoom2.wad] [-nodes N -skill 3 -map 1 -deathmatch 0 -nomonsters]
//	    [-input idle|doom|random|script -script FILE -seed N]
//	    [-record tics.jsonl] [-tics N] [-protocols ticnet,chocolate] [-profile reference]
//
// With -nodes N it launches the game, if it is the controller (the first
// player to connect), once N players and drones are in the lobby, as
// chocolate-doom -nodes does. With -tics N it leaves cleanly after running
// N tics; otherwise it plays until the game ends or SIGINT. It exits 0 when
// it left by itself, 1 when it was rejected or the server ended the game.
//
// # Consistency
//
// A real Chocolate Doom client checks every other player's commands: once
// gametic > 128, the consistency byte of player p's command for tic m must
// equal the low byte of p's mobj x (fixed point) that the client recorded
// at tic m-128, or it quits with "consistency failure". This client does
// not run Doom, so it sends the byte a small model of its own player gives
// (xModel in input.go): x does not change while every thrust the player
// gets has a zero x part in Doom's fixed-point arithmetic, and then the
// byte is 0, its value at any spawn point. That holds exactly, without
// Doom's sine table, for a thrust of 1 southward (forward facing south,
// strafing right facing east, back-pedalling facing north): FixedMul(2048,
// 25) is 0. Turning and firing never move the player.
//
// -input doom uses only such input: it turns, fires and walks south, with
// the player start read from -iwad, so real clients keep running. It needs
// a cooperative game without monsters (-deathmatch 0 -nomonsters, which
// the controller sets) and open floor to the south or a horizontal wall;
// in Freedoom: Phase 2's MAP01 the start room has both, and player 1's
// shots hit player 2, who starts 48 units south, so that player's real
// client sends commands with a changing consistency byte. Any other input
// (-input random, or a script that moves otherwise) makes real clients
// quit when they run the tic 129 tics after the first such move; the client
// logs which tic that is.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

type options struct {
	server     string
	name       string
	drone      bool
	iwad       string
	nodes      int
	settings   wire.Settings
	inputName  string
	script     string
	seed       uint64
	record     string
	tics       uint
	protocols  string
	profile    string
	maxPlayers uint
}

func main() {
	var o options
	var skill, episode, mapNum, deathmatch, dup, extratics uint
	var nomonsters bool
	flag.StringVar(&o.server, "server", fmt.Sprintf("127.0.0.1:%d", netcore.DefaultPort), "server address (host:port)")
	flag.StringVar(&o.name, "name", "ticnet", "player name")
	flag.BoolVar(&o.drone, "drone", false, "watch only: send no commands, receive every player's")
	flag.StringVar(&o.iwad, "iwad", "", "IWAD to describe in the connect data (hash, Freedoom flag, game) and to read player starts from")
	flag.IntVar(&o.nodes, "nodes", 0, "as the controller, launch once this many players and drones are in the lobby (0: never)")
	flag.UintVar(&skill, "skill", 3, "skill 1-5, as chocolate-doom's -skill")
	flag.UintVar(&episode, "episode", 1, "episode (Doom; 1 for Doom II)")
	flag.UintVar(&mapNum, "map", 1, "map")
	flag.UintVar(&deathmatch, "deathmatch", 0, "0 cooperative, 1 deathmatch, 2 altdeath")
	flag.BoolVar(&nomonsters, "nomonsters", false, "no monsters")
	flag.UintVar(&dup, "dup", 1, "ticdup")
	flag.UintVar(&extratics, "extratics", netcore.DefaultExtraTics, "extra tics sent with each packet")
	flag.StringVar(&o.inputName, "input", "idle", "commands to send: idle, doom, random or script")
	flag.StringVar(&o.script, "script", "", "with -input script: lines of TICS FORWARD SIDE TURN BUTTONS")
	flag.Uint64Var(&o.seed, "seed", 1, "with -input random: the seed")
	flag.StringVar(&o.record, "record", "", "write every tic run, with every player's command, to this file (JSON lines)")
	flag.UintVar(&o.tics, "tics", 0, "leave after running this many tics (0: play on)")
	flag.StringVar(&o.protocols, "protocols", "ticnet,chocolate", "protocols to offer, preferred first: ticnet, chocolate")
	flag.StringVar(&o.profile, "profile", "reference", "timeouts: reference (30 s) or browser (4 s)")
	flag.UintVar(&o.maxPlayers, "maxplayers", 4, "the game's MAXPLAYERS in the connect data (Doom's is 4)")
	flag.Parse()
	if skill < 1 || skill > 5 || deathmatch > 2 || dup < 1 || dup > 255 || extratics > 255 || episode > 255 || mapNum < 1 ||
		mapNum > 255 || o.maxPlayers < 1 || o.maxPlayers > tic.MaxPlayers {
		fmt.Fprintln(os.Stderr, "ticnet-client: a setting is out of range")
		flag.Usage()
		os.Exit(2)
	}
	o.settings = wire.Settings{TicDup: uint8(dup), ExtraTics: uint8(extratics), Deathmatch: uint8(deathmatch),
		NoMonsters: b2u(nomonsters), Episode: uint8(episode), Map: uint8(mapNum), Skill: int8(skill) - 1,
		GameVersion: 4, NewSync: true, LoadGame: -1} // gameversion 4: Doom 1.9, as Debian's build numbers it
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	log.SetPrefix("ticnet-client: ")
	code, err := run(&o)
	if err != nil {
		log.Print(err)
	}
	os.Exit(code)
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

func protocolList(s string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(s, ",") {
		switch strings.TrimSpace(name) {
		case "ticnet":
			out = append(out, wire.ProtocolTicnet)
		case "chocolate":
			out = append(out, wire.ProtocolChocolate)
		default:
			return nil, fmt.Errorf("unknown protocol %q (want ticnet or chocolate)", name)
		}
	}
	return out, nil
}

func run(o *options) (int, error) {
	protos, err := protocolList(o.protocols)
	if err != nil {
		return 2, err
	}
	var timeouts netcore.Timeouts
	switch o.profile {
	case "reference":
		timeouts = netcore.ReferenceTimeouts
	case "browser":
		timeouts = netcore.BrowserTimeouts
	default:
		return 2, fmt.Errorf("unknown profile %q", o.profile)
	}
	// A real client describes the IWAD it loads; without -iwad, describe
	// the one it would find here.
	w, connect, err := describeIWAD(o.iwad, iwadDirs)
	if err != nil {
		return 2, err
	}
	if o.iwad == "" {
		if w != nil {
			log.Printf("describing %s (-iwad to choose another)", w.path)
		} else {
			log.Printf("no IWAD in %v: describing Doom II without one (-iwad to choose one)", iwadDirs)
		}
	}
	connect.MaxPlayers = uint8(o.maxPlayers)

	g := &game{me: -1, model: &xModel{dup: int(o.settings.TicDup)}}
	switch o.inputName {
	case "idle":
		g.in = idleInput{}
	case "random":
		g.in = randomInput{rand.New(rand.NewPCG(o.seed, o.seed^0x9e3779b97f4a7c15))}
	case "script":
		if g.in, err = readScript(o.script); err != nil {
			return 2, err
		}
	case "doom":
		g.in = newDoomInput(g.model)
	default:
		return 2, fmt.Errorf("unknown input %q", o.inputName)
	}
	if o.record != "" {
		if g.rec, err = newRecorder(o.record); err != nil {
			return 2, err
		}
		defer func() {
			if err := g.rec.close(); err != nil {
				log.Printf("record: %v", err)
			}
		}()
	}

	srvAddr, err := resolve(o.server)
	if err != nil {
		return 2, err
	}
	tr, err := netcore.ListenUDP(":0")
	if err != nil {
		return 1, err
	}
	defer tr.Close()
	server, _ := tr.Peer(srvAddr)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ticker := time.NewTicker(time.Millisecond)
	defer ticker.Stop()
	start := time.Now()
	now := func() int64 { return time.Since(start).Milliseconds() }
	cli := netcore.NewClient(netcore.ClientConfig{Name: o.name, Drone: o.drone, Connect: connect, Protocols: protos,
		Timeouts: timeouts, Settings: o.settings}, tr, server, g, now())
	log.Printf("connecting to %v from %v as %q (protocols %v)", srvAddr, tr.LocalAddr(), o.name, protos)

	launched, leaving := false, false
	for {
		select {
		case <-ticker.C:
		case sig := <-sigs:
			if leaving {
				return 1, fmt.Errorf("%v again: quitting without waiting for the server", sig)
			}
			log.Printf("%v: leaving (again to quit at once)", sig)
			leaving = true
			cli.Leave(now())
		}
		t := now()
		for _, e := range cli.Update(t) {
			switch e.Kind {
			case netcore.EventConnected:
				log.Printf("connected, protocol %s", e.Protocol)
			case netcore.EventLobbyChanged:
				l := e.Lobby
				log.Printf("lobby: %d players %v, %d drones, %d ready, controller %v, player %d",
					len(l.Players), l.Players, l.NumDrones, l.ReadyPlayers, l.IsController, l.Player)
				if o.nodes > 0 && l.IsController && !launched && len(l.Players)+l.NumDrones >= o.nodes {
					log.Printf("launching: %d nodes", len(l.Players)+l.NumDrones)
					cli.Launch()
					launched = true
				}
			case netcore.EventGameStarted:
				startGame(g, cli, w, o.inputName)
			case netcore.EventRejected:
				return 1, rejected(e.Reason, iwadDirs)
			case netcore.EventDisconnected:
				if leaving {
					log.Printf("left after %d tics", cli.GameTic())
					return 0, nil
				}
				return 1, fmt.Errorf("disconnected after %d tics: %s", cli.GameTic(), e.Reason)
			case netcore.EventDesyncSuspected:
				if e.Player == g.me {
					log.Printf("tic %d: our own consistency byte came back different: %s", e.Tic, e.Reason)
				} else {
					log.Printf("tic %d: player %d's consistency byte is not 0: it moved (this client does not run Doom, so it does not check others)", e.Tic, e.Player)
				}
			default:
				log.Print(e)
			}
		}
		if o.tics > 0 && !leaving && cli.GameTic() >= uint32(o.tics) {
			log.Printf("ran %d tics; leaving", cli.GameTic())
			leaving = true
			cli.Leave(t)
		}
	}
}

// startGame sets the game up for the player number and settings the
// server gave.
func startGame(g *game, cli *netcore.Client, w *wad, inputName string) {
	s := cli.Settings()
	g.me = cli.Player()
	log.Printf("game start: player %d of %d, protocol %s, episode %d map %d skill %d deathmatch %d nomonsters %d ticdup %d",
		g.me, s.NumPlayers, cli.Protocol(), s.Episode, s.Map, s.Skill+1, s.Deathmatch, s.NoMonsters, s.TicDup)
	g.model.dup = int(s.TicDup)
	if g.me < 0 || inputName != "doom" {
		return
	}
	var why string
	switch {
	case w == nil:
		why = "no -iwad to read the player start from"
	case s.Deathmatch != 0:
		why = "deathmatch starts are random"
	case s.NoMonsters == 0:
		why = "monsters would push the player"
	}
	if why == "" {
		_, mission := w.game()
		_, _, angle, err := w.playerStart(mission, s.Episode, s.Map, g.me)
		if err != nil {
			why = err.Error()
		} else {
			// P_SpawnPlayer: angle = ANG45 * (mapthing angle / 45).
			g.model.angle = uint32(angle/45) * (ang90 / 2)
			g.model.angleKnown = true
		}
	}
	if why != "" {
		log.Printf("-input doom: %s, so the player turns and fires but does not walk", why)
	}
}

func resolve(hostport string) (netip.AddrPort, error) {
	if !strings.Contains(hostport, ":") {
		hostport = fmt.Sprintf("%s:%d", hostport, netcore.DefaultPort)
	}
	a, err := net.ResolveUDPAddr("udp4", hostport)
	if err != nil {
		return netip.AddrPort{}, err
	}
	ap := a.AddrPort()
	if !ap.IsValid() {
		return netip.AddrPort{}, errors.New("no address for " + hostport)
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}
