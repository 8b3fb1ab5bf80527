//go:build js && wasm

package main

import (
	"github.com/hack-pad/safejs"

	"github.com/ticnet/ticnet/election/session"
	"github.com/ticnet/ticnet/netcore/wire"
)

// The objects the page gets from the session, with the fields and names
// ticnet.d.ts gives them (session's schema.go defines them, and a test
// holds ticnet.d.ts to it): for the launch options, a Uint8Array here
// (ticnet.js decodes them).

// eventObject is e for the page's onEvent: every field of its kind
// (session.EventKinds), zero or not, but an optional one that is absent.
func eventObject(e session.Event) (safejs.Value, error) {
	var x errs
	o := x.object()
	x.set(o, "kind", e.Kind)
	for _, f := range session.FieldsOf(e.Kind) {
		if v := f.Value(&e); v != nil {
			x.set(o, f.Name, fieldValue(&x, v))
		}
	}
	return o, x.err
}

// fieldValue is v, a session.Field's value, as the page gets it.
func fieldValue(x *errs, v any) any {
	switch v := v.(type) {
	case []int:
		return newArray(x, v)
	case []byte:
		return x.bytes(v)
	case *session.LobbyReport:
		if v == nil {
			return safejs.Null()
		}
		return lobbyObject(x, v)
	}
	return v
}

// schemaObject is what ticnet.js checks the page's options with: for
// start, its settings and playReplay, each option by name ({check, min,
// max, maxBytes, values, default}, as session.Option has them), and the
// most bytes of launch options.
func schemaObject(x *errs) safejs.Value {
	options := func(opts []session.Option) safejs.Value {
		o := x.object()
		for _, opt := range opts {
			c := x.object()
			x.set(c, "check", string(opt.Check))
			x.set(c, "min", opt.Min)
			x.set(c, "max", opt.Max)
			x.set(c, "maxBytes", opt.MaxBytes)
			if opt.Values != nil {
				x.set(c, "values", newArray(x, opt.Values))
			}
			if opt.Default != nil {
				x.set(c, "default", opt.Default)
			}
			x.set(o, opt.Name, c)
		}
		return o
	}
	o := x.object()
	x.set(o, "start", options(session.StartOptions))
	x.set(o, "settings", options(session.SettingsOptions))
	x.set(o, "replay", options(session.ReplayOptions))
	x.set(o, "launchOptionsBytes", wire.MaxLaunchOptions)
	return o
}

func lobbyObject(x *errs, r *session.LobbyReport) safejs.Value {
	players := safejs.Null()
	if r.Players != nil {
		players = x.construct(jsArray, len(r.Players))
	}
	for i, p := range r.Players {
		po := x.object()
		x.set(po, "name", p.Name)
		x.set(po, "addr", p.Addr)
		x.set(po, "player", p.Player)
		if x.err == nil {
			x.keep(players.SetIndex(i, po))
		}
	}
	o := x.object()
	x.set(o, "players", players)
	x.set(o, "controller", r.Controller)
	x.set(o, "player", r.Player)
	x.set(o, "maxPlayers", r.MaxPlayers)
	return o
}

// statsObject is st for the page's stats(), every field set; nil (no
// pass has published any yet) is { role: "undecided" }.
func statsObject(st *session.Stats) (safejs.Value, error) {
	var x errs
	o := x.object()
	if st == nil {
		x.set(o, "role", string(session.RoleUndecided))
		return o, x.err
	}
	x.set(o, "role", string(st.Role))
	x.set(o, "uid", st.UID)
	x.set(o, "players", arrayOrNull(&x, st.Players))
	x.set(o, "gametic", st.Gametic)
	x.set(o, "recvtic", st.Recvtic)
	x.set(o, "maketic", st.Maketic)
	x.set(o, "rttMS", st.RTTMS)
	x.set(o, "inputDelay", st.InputDelay)
	x.set(o, "protocol", st.Protocol)
	x.set(o, "framesIn", st.FramesIn)
	x.set(o, "framesOut", st.FramesOut)
	x.set(o, "bytesIn", st.BytesIn)
	x.set(o, "bytesOut", st.BytesOut)
	x.set(o, "framesInPerSec", st.FramesInPerSec)
	x.set(o, "framesOutPerSec", st.FramesOutPerSec)
	x.set(o, "bytesInPerSec", st.BytesInPerSec)
	x.set(o, "bytesOutPerSec", st.BytesOutPerSec)
	x.set(o, "dropped", st.Dropped)
	x.set(o, "forged", st.Forged)
	x.set(o, "resends", st.Resends)
	x.set(o, "substituted", st.Substituted)
	x.set(o, "passMedianUS", st.PassMedianUS)
	x.set(o, "passP99US", st.PassP99US)
	x.set(o, "passMeanUS", st.PassMeanUS)
	x.set(o, "ticMedianUS", st.TicMedianUS)
	x.set(o, "ticP99US", st.TicP99US)
	x.set(o, "transferBytesIn", st.TransferBytesIn)
	x.set(o, "transferMS", st.TransferMS)
	x.set(o, "joinMS", st.JoinMS)
	x.set(o, "ticsPerUpdate", st.TicsPerUpdate)
	x.set(o, "ticCostUS", st.TicCostUS)
	x.set(o, "migrations", st.Migrations)
	x.set(o, "predictedTic", st.PredictedTic)
	x.set(o, "predicted", st.Predicted)
	x.set(o, "rollbacks", st.Rollbacks)
	x.set(o, "rolledBack", st.RolledBack)
	x.set(o, "replayBytes", st.ReplayBytes)
	x.set(o, "replayStopped", st.ReplayStopped)
	x.set(o, "peers", peersArray(&x, st.Peers))
	x.set(o, "watchers", st.Watchers)
	x.set(o, "watcherNames", newArray(&x, st.WatcherNames))
	return o, x.err
}

// peersArray is Stats.Peers for the page: an object a player, every field
// set, or null.
func peersArray(x *errs, peers []session.Peer) safejs.Value {
	if peers == nil {
		return safejs.Null()
	}
	a := x.construct(jsArray, len(peers))
	for i, p := range peers {
		o := x.object()
		x.set(o, "player", p.Player)
		x.set(o, "name", p.Name)
		x.set(o, "rttMS", p.RTTMS)
		x.set(o, "marginMS", p.MarginMS)
		x.set(o, "ahead", p.Ahead)
		x.set(o, "loss", p.Loss)
		x.set(o, "substituted", p.Substituted)
		x.set(o, "inputDelay", p.InputDelay)
		if x.err == nil {
			x.keep(a.SetIndex(i, o))
		}
	}
	return a
}
