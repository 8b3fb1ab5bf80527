//go:build js && wasm

package main

import (
	"github.com/hack-pad/safejs"

	"github.com/ticnet/ticnet/election/session"
	"github.com/ticnet/ticnet/netcore"
)

// config is the session's configuration from the page's (ticnet.js has
// checked it against session.StartOptions, and passes the options as the
// page gave them, undefined where it gave none): name, maxPlayers,
// timeout ("browser", "reference"), predictTics, inputDelay (or "auto",
// with minInputDelay and maxInputDelay), record, keepStates, watch, ticRate,
// inputSize (0: Doom's ticcmd), eventBits (per byte of the input) and
// settings (session.SettingsOptions), each taking its default from those
// tables when absent; and what ticnet.js computes: profile ("local",
// "gossip"), predict, startTime and token (32 hex digits; "" for none).
// An error is what reading it threw.
func config(page safejs.Value) (session.Config, error) {
	var x errs
	opt := func(name string) optionOf { return optionOf{&x, page, session.StartOptions, name} }
	c := session.Config{Name: opt("name").text(), MaxPlayers: opt("maxPlayers").integer(),
		StartTimeMS: number(x.get(page, "startTime")), Election: session.ElectionLocal, Timeouts: netcore.BrowserTimeouts}
	c.Predict, c.PredictTics = truthy(x.get(page, "predict")), opt("predictTics").integer()
	if opt("inputDelay").get().Type() == safejs.TypeString { // "auto", as checked
		c.AutoDelay = netcore.AutoDelay{On: true, Min: opt("minInputDelay").integer(), Max: opt("maxInputDelay").integer()}
	} else {
		c.InputDelay = opt("inputDelay").integer()
	}
	c.Replay.Record = opt("record").boolean()
	c.KeepStates = opt("keepStates").boolean()
	c.Watch = opt("watch").boolean()
	c.Input = layout(&x, page)
	c.TicRate = opt("ticRate").integer()
	if text(x.get(page, "profile")) == "gossip" {
		c.Election = session.ElectionGossip
	}
	if opt("timeout").text() == "reference" {
		c.Timeouts = netcore.ReferenceTimeouts
	}
	if t, ok := fromHex(text(x.get(page, "token"))); ok && len(t) == len(c.Token) {
		copy(c.Token[:], t)
	}
	set := x.get(page, "settings")
	setting := func(name string) int { return optionOf{&x, set, session.SettingsOptions, name}.integer() }
	st := &c.Settings
	st.TicDup, st.LoadGame, st.NewSync, st.GameVersion = 1, -1, true, 4
	st.ExtraTics, st.Deathmatch = uint8(setting("extraTics")), uint8(setting("deathmatch"))
	st.Episode, st.Map, st.Skill = uint8(setting("episode")), uint8(setting("map")), int8(setting("skill"))
	st.TimeLimit = uint32(setting("timeLimit"))
	return c, x.err
}

// optionOf is the option name of the page's object obj, one of opts:
// read as the page gave it, or as the option's default when it gave none
// (obj[name] undefined, or obj no object).
type optionOf struct {
	x    *errs
	obj  safejs.Value
	opts []session.Option
	name string
}

// get is obj[name], undefined when obj is no object.
func (o optionOf) get() safejs.Value {
	if o.obj.Type() != safejs.TypeObject {
		return safejs.Undefined()
	}
	return o.x.get(o.obj, o.name)
}

func (o optionOf) fallback() any {
	opt, _ := session.OptionOf(o.opts, o.name)
	return opt.Default
}

func (o optionOf) integer() int {
	if v := o.get(); v.Type() == safejs.TypeNumber {
		return integer(v)
	}
	d, _ := o.fallback().(int)
	return d
}

func (o optionOf) boolean() bool {
	if v := o.get(); v.Type() == safejs.TypeBoolean {
		return truthy(v)
	}
	d, _ := o.fallback().(bool)
	return d
}

func (o optionOf) text() string {
	if v := o.get(); v.Type() == safejs.TypeString {
		return text(v)
	}
	d, _ := o.fallback().(string)
	return d
}

// fromHex decodes hex digits (either case); ok is false on any other
// text, or an odd count.
func fromHex(s string) (b []byte, ok bool) {
	if len(s)%2 != 0 {
		return nil, false
	}
	digit := func(c byte) (byte, bool) {
		switch {
		case '0' <= c && c <= '9':
			return c - '0', true
		case 'a' <= c && c <= 'f':
			return c - 'a' + 10, true
		case 'A' <= c && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	b = make([]byte, len(s)/2)
	for i := range b {
		hi, ok1 := digit(s[2*i])
		lo, ok2 := digit(s[2*i+1])
		if !ok1 || !ok2 {
			return nil, false
		}
		b[i] = hi<<4 | lo
	}
	return b, true
}
