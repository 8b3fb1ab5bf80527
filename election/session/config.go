package session

import (
	"crypto/ecdh"
	"crypto/rand"

	"github.com/ticnet/ticnet/election"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ElectionCadence selects the election's cadence (election.Local or
// election.Gossip).
type ElectionCadence uint8

const (
	// ElectionLocal is for BroadcastChannel tabs: delivery is immediate.
	ElectionLocal ElectionCadence = iota
	// ElectionGossip is for the WebXDC realtime channel: peers appear late.
	ElectionGossip
)

// copyKey is the copy's key pair: cfg.Key, or its token's, or one drawn.
func (cfg Config) copyKey() (*ecdh.PrivateKey, error) {
	switch {
	case cfg.Key != nil:
		return cfg.Key, nil
	case cfg.Token != [wire.RejoinTokenLen]byte{}:
		return auth.KeyFromSecret(cfg.Token[:]), nil
	}
	return auth.NewKey(rand.Reader)
}

// cadence is the election's timing that cfg.Election selects.
func (cfg Config) cadence() election.Cadence {
	if cfg.Election == ElectionGossip {
		return election.Gossip
	}
	return election.Local
}

// Config configures a session.
type Config struct {
	Name        string
	MaxPlayers  int
	Election    ElectionCadence
	Timeouts    netcore.Timeouts // default netcore.BrowserTimeouts
	Settings    wire.Settings    // asked for if this copy is the controller
	StartTimeMS float64          // when the page loaded (Date.now()): earlier copies win the election
	// Rand draws UIDs; nil means crypto/rand's (election.Config.Rand).
	Rand func() uint32
	// Token is this copy's rejoin token (zero: none). A copy that comes
	// back to a game in progress with the token it left with, under any
	// UID, within the server's grace period gets its player back: its key
	// derives from the token, which never goes on the wire.
	Token [wire.RejoinTokenLen]byte
	// Key is this copy's key pair, which its client and, when it serves,
	// its server authenticate their connections with (netcore/auth); nil:
	// derived from Token, or, without one, drawn from crypto/rand.
	Key *ecdh.PrivateKey
	// Predict makes this copy's client run ahead of the confirmed tics
	// when its game can save and load (netcore.ClientConfig.Predict), up to
	// PredictTics (0: netcore.DefaultPredictTics).
	Predict     bool
	PredictTics int
	// InputDelay is netcore.ClientConfig.InputDelay: tics between the
	// local input and the tic it is for (0 to netcore.MaxInputDelay).
	InputDelay int
	// AutoDelay makes this copy's server, when it serves, choose every
	// player's input delay (netcore.ServerConfig.AutoDelay); its client
	// starts a game with AutoDelay.Min, and takes the server's choice.
	AutoDelay netcore.AutoDelay
	// Input is the game's input layout (tic.InputLayout): Doom's
	// ticcmd, or opaque input, which only the extension protocol carries.
	Input tic.InputLayout
	// TicRate is the game's tics per second under the extension protocol
	// (netcore.ServerConfig.TicRate; 0: 35).
	TicRate int
	// RecordTics makes this copy's server, when it serves, note which
	// commands it had for each tic (netcore.ServerConfig.RecordTics): for
	// tests.
	RecordTics bool
	// Replay makes this copy record its game (netcore.ClientConfig.Replay;
	// Session.Replay).
	Replay replay.Config
	// KeepStates makes this copy keep its recent game states, for the
	// "desyncStates" event (netcore.ClientConfig.KeepStates).
	KeepStates bool
	// Watch makes this copy watch: it never plays, never serves and sends
	// no commands; it runs the game from the tics the server broadcasts
	// (netcore's watchers, election.Config.Watch).
	Watch bool
}

// clientConfig is the configuration of this copy's client; local: it
// reaches its server through the loopback, in this copy, which sends it
// the game state unpaced (transfer.Loopback).
func (c *Config) clientConfig(local bool) netcore.ClientConfig {
	cc := netcore.ClientConfig{Name: c.Name, Timeouts: c.Timeouts, Settings: c.Settings, Token: c.Token, Key: c.Key,
		Predict: c.Predict, PredictTics: c.PredictTics, InputDelay: c.startDelay(), Input: c.Input, Replay: c.Replay,
		KeepStates: c.KeepStates, Drone: c.Watch}
	if local {
		cc.Transfer = transfer.Loopback
	}
	return cc
}

// startDelay is the input delay this copy's client starts a game with.
func (c *Config) startDelay() int {
	if c.AutoDelay.On {
		return c.AutoDelay.Min
	}
	return c.InputDelay
}

// serverConfig is the configuration of this copy's server, for game.
func (c *Config) serverConfig(game uint32, el *election.Election) netcore.ServerConfig {
	return netcore.ServerConfig{Key: c.Key, Timeouts: c.Timeouts, MaxPlayers: c.MaxPlayers, BroadcastTics: true,
		RecordTics: c.RecordTics, Game: game, Input: c.Input, TicRate: c.TicRate, AutoDelay: c.AutoDelay,
		// A hidden copy would stall the game it took over.
		MaySucceed: func(a link.Addr) bool { return el.Visible(uint32(a)) }}
}
