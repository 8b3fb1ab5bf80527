package session

import (
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// The page's contract, defined once: every kind of event the page gets
// with the fields it carries, and the options start and playReplay take
// with their limits and defaults. The browser binding builds each event
// from EventKinds (every field of its kind, zero or not) and hands
// StartOptions, SettingsOptions and ReplayOptions to ticnet.js, which
// checks the page's options with them and keeps no list of its own.
// ticnet.d.ts is written for people; schema_test.go fails when it and
// these tables disagree.

// Field is one field of an event as the page gets it.
type Field struct {
	Name string // as the page reads it
	TS   string // its type in ticnet.d.ts
	// Optional: absent when Value is nil (TS: "name?:").
	Optional bool
	// Value is the field of e: an int, int64, uint32, string, bool, []int,
	// *LobbyReport or []byte; nil (an optional field's) for none.
	Value func(e *Event) any
}

// as is f with TS type ts: a kind that narrows a field's type.
func (f Field) as(ts string) Field {
	f.TS = ts
	return f
}

// The fields, each once.
var (
	fieldRole      = Field{"role", `"server" | "client"`, false, func(e *Event) any { return string(e.Role) }}
	fieldUID       = Field{"uid", "number", false, func(e *Event) any { return e.UID }}
	fieldServerUID = Field{"serverUID", "number", false, func(e *Event) any { return e.ServerUID }}
	fieldPlayer    = Field{"player", "number", false, func(e *Event) any { return player(e) }}
	fieldPlayers   = Field{"players", "number[]", false, func(e *Event) any { return e.Players }}
	fieldName      = Field{"name", "string", true, func(e *Event) any {
		if e.Name == "" {
			return nil
		}
		return e.Name
	}}
	fieldReason   = Field{"reason", "string", false, func(e *Event) any { return e.Reason }}
	fieldTic      = Field{"tic", "number", false, func(e *Event) any { return e.Tic }}
	fieldLobby    = Field{"lobby", "Lobby", false, func(e *Event) any { return e.Lobby }}
	fieldProtocol = Field{"protocol", "string", false, func(e *Event) any { return e.Protocol }}
	fieldJoined   = Field{"joined", "boolean", false, func(e *Event) any { return e.Joined }}
	fieldRejoined = Field{"rejoined", "boolean", false, func(e *Event) any { return e.Rejoined }}
	fieldDone     = Field{"done", "number", false, func(e *Event) any { return e.Done }}
	fieldTotal    = Field{"total", "number", false, func(e *Event) any { return e.Total }}
	fieldUnit     = Field{"unit", `"bytes" | "tics"`, false, func(e *Event) any { return e.Unit }}
	fieldGapMS    = Field{"gapMS", "number", false, func(e *Event) any { return e.GapMS }}
	fieldTicRate  = Field{"ticRate", "number", false, func(e *Event) any { return e.TicRate }}
	fieldSeed     = Field{"seed", "number", false, func(e *Event) any { return e.Seed }}
	// options: the launch options as the wire carries them (a tag byte,
	// then the bytes or JSON); ticnet.js decodes them into what launch
	// was given, of the type the game gave start (StartEvent<O>).
	fieldOptions = Field{"options", "O", true, func(e *Event) any {
		if len(e.Options) == 0 {
			return nil
		}
		return e.Options
	}}
	fieldCallback = Field{"callback", `"input" | "onTic" | "checksum" | "save" | "load" | "playerChecksum" | "over" | "onConfirmed" | ""`, false,
		func(e *Event) any { return e.Callback }}
	fieldMessage  = Field{"message", "string", false, func(e *Event) any { return e.Message }}
	fieldStack    = Field{"stack", "string", false, func(e *Event) any { return e.Stack }}
	fieldOver     = Field{"over", "boolean", false, func(e *Event) any { return e.Over }}
	fieldDiverged = Field{"diverged", "boolean", false, func(e *Event) any { return e.Diverged }}
	fieldDelay    = Field{"delay", "number", false, func(e *Event) any { return e.Delay }}
	fieldBytes    = Field{"bytes", "number", false, func(e *Event) any { return e.Bytes }}
	fieldMS       = Field{"ms", "number", false, func(e *Event) any { return e.MS }}
	fieldBefore   = Field{"before", "Uint8Array", false, func(e *Event) any { return e.Before }}
	fieldAfter    = Field{"after", "Uint8Array", false, func(e *Event) any { return e.After }}
	fieldFetched  = Field{"fetched", "boolean", false, func(e *Event) any { return e.Fetched }}
)

// player is e.Player, -1 for none.
func player(e *Event) int {
	if e.Player == nil {
		return -1
	}
	return *e.Player
}

// EventKind is one kind of event: its name (the page's e.kind), the
// interface ticnet.d.ts declares it with, and its fields besides kind.
type EventKind struct {
	Name, TS string
	Fields   []Field
}

// EventKinds are every kind of event the page gets from start, in the
// order ticnet.d.ts declares them.
var EventKinds = []EventKind{
	{"role", "RoleEvent", []Field{fieldRole, fieldUID, fieldServerUID}},
	{"newServer", "NewServerEvent", []Field{fieldRole.as(`"client"`), fieldServerUID}},
	{"lobby", "LobbyEvent", []Field{fieldLobby}},
	{"launched", "LaunchedEvent", nil},
	{"start", "StartEvent", []Field{fieldPlayer, fieldProtocol, fieldTic, fieldJoined, fieldRejoined, fieldTicRate, fieldSeed, fieldOptions,
		fieldLobby.as("Lobby | null")}},
	{"rejoined", "RejoinedEvent", []Field{fieldPlayer, fieldName, fieldTic}},
	{"catchup", "CatchupEvent", []Field{fieldTic, fieldDone, fieldTotal, fieldUnit}},
	{"join", "JoinEvent", []Field{fieldPlayer, fieldName, fieldTic}},
	{"leave", "LeaveEvent", []Field{fieldPlayer, fieldName, fieldTic, fieldReason}},
	{"desync", "DesyncEvent", []Field{fieldPlayer, fieldPlayers, fieldName, fieldTic, fieldReason, fieldDiverged}},
	{"message", "ConsoleMessageEvent", []Field{fieldReason}},
	{"rejected", "RejectedEvent", []Field{fieldReason}},
	{"disconnect", "DisconnectEvent", []Field{fieldReason}},
	{"retry", "RetryEvent", nil},
	{"split", "SplitEvent", []Field{fieldServerUID}},
	{"serverLost", "ServerLostEvent", nil},
	{"migrating", "MigratingEvent", []Field{fieldTic, fieldReason}},
	{"resumed", "ResumedEvent", []Field{fieldServerUID, fieldTic, fieldGapMS}},
	{"migrateFailed", "MigrateFailedEvent", nil},
	{"yielded", "YieldedEvent", []Field{fieldServerUID}},
	{"error", "GameErrorEvent", []Field{fieldCallback, fieldTic, fieldMessage, fieldStack, fieldReason}},
	{"endAsked", "EndAskedEvent", []Field{fieldPlayer}},
	{"end", "EndEvent", []Field{fieldTic, fieldOver}},
	{"inputDelay", "InputDelayEvent", []Field{fieldTic, fieldDelay}},
	{"repaired", "RepairedEvent", []Field{fieldPlayer, fieldName, fieldTic, fieldBytes, fieldMS, fieldDiverged}},
	{"desyncStates", "DesyncStatesEvent", []Field{fieldTic, fieldDiverged, fieldFetched, fieldBefore, fieldAfter}},
}

// FieldsOf returns the fields of the events of kind; nil for a kind
// EventKinds does not have.
func FieldsOf(kind string) []Field {
	for _, k := range EventKinds {
		if k.Name == kind {
			return k.Fields
		}
	}
	return nil
}

// Check says how ticnet.js checks an option's value.
type Check string

const (
	CheckInt      Check = "int"      // an integer from Min to Max, or one of Values
	CheckNumber   Check = "number"   // a finite number, Min or more
	CheckBool     Check = "boolean"  // true or false
	CheckString   Check = "string"   // a string; of at most MaxBytes in UTF-8 when MaxBytes > 0
	CheckOneOf    Check = "oneOf"    // one of Values
	CheckObject   Check = "object"   // an object (settings: SettingsOptions checks its keys)
	CheckBytes    Check = "bytes"    // an array or Uint8Array of integers from 0 to 255
	CheckFunction Check = "function" // a function (the game's callbacks, onEvent)
)

// Option is one option the page gives: its name, how it is checked, and
// its default (nil: none, or one the page computes: see Default).
type Option struct {
	Name     string
	Check    Check
	Min, Max int // CheckInt; CheckNumber: Min
	MaxBytes int
	Values   []string
	// Default is what an absent option means (an int, a string or a
	// bool); nil where there is none, or where ticnet.js computes it from
	// the page (profile: by channel; predict: whether the game saves;
	// storageKey: the page's path; wasmURL: needed before the wasm runs).
	Default any
}

// MaxPlayerNameBytes is the longest player name the wire carries (its
// names are 30 bytes with the NUL).
const MaxPlayerNameBytes = wire.MaxPlayerName - 1

// MaxTimeLimit bounds settings.timeLimit (the wire's 32 bits, as a JS
// integer the page can give).
const MaxTimeLimit = 0x7fffffff

// Options the game's callbacks are: the same for start and playReplay.
var (
	optOnTic          = Option{Name: "onTic", Check: CheckFunction}
	optChecksum       = Option{Name: "checksum", Check: CheckFunction}
	optSave           = Option{Name: "save", Check: CheckFunction}
	optLoad           = Option{Name: "load", Check: CheckFunction}
	optPlayerChecksum = Option{Name: "playerChecksum", Check: CheckFunction}
	optOver           = Option{Name: "over", Check: CheckFunction}
	optOnConfirmed    = Option{Name: "onConfirmed", Check: CheckFunction}
	optWasmURL        = Option{Name: "wasmURL", Check: CheckString}
	optOnEvent        = Option{Name: "onEvent", Check: CheckFunction}
	optInputSize      = Option{Name: "inputSize", Check: CheckInt, Min: 1, Max: wire.MaxInputBytes}
)

// StartOptions are the options start takes.
var StartOptions = []Option{
	optWasmURL,
	{Name: "name", Check: CheckString, MaxBytes: MaxPlayerNameBytes, Default: "Player"},
	{Name: "maxPlayers", Check: CheckInt, Min: 2, Max: tic.MaxPlayers, Default: tic.MaxPlayers},
	{Name: "profile", Check: CheckOneOf, Values: []string{"local", "gossip"}},
	{Name: "timeout", Check: CheckOneOf, Values: []string{"browser", "reference"}, Default: "browser"},
	{Name: "settings", Check: CheckObject},
	{Name: "rejoin", Check: CheckBool, Default: true},
	{Name: "storageKey", Check: CheckString},
	optOnEvent,
	{Name: "predict", Check: CheckBool},
	{Name: "predictTics", Check: CheckInt, Min: 1, Max: netcore.MaxPredictTics, Default: netcore.DefaultPredictTics},
	{Name: "inputDelay", Check: CheckInt, Min: 0, Max: netcore.MaxInputDelay, Values: []string{"auto"}, Default: 0},
	{Name: "minInputDelay", Check: CheckInt, Min: 0, Max: netcore.MaxInputDelay, Default: 0},
	{Name: "maxInputDelay", Check: CheckInt, Min: 0, Max: netcore.MaxInputDelay, Default: netcore.DefaultMaxAutoDelay},
	{Name: "record", Check: CheckBool, Default: true},
	{Name: "keepStates", Check: CheckBool, Default: false},
	{Name: "watch", Check: CheckBool, Default: false},
	{Name: "ticRate", Check: CheckInt, Min: wire.MinTicRate, Max: wire.MaxTicRate, Default: wire.DefaultTicRate},
	optInputSize,
	{Name: "eventBits", Check: CheckBytes},
	{Name: "input", Check: CheckFunction},
	optOnTic, optChecksum, optSave, optLoad, optPlayerChecksum, optOver, optOnConfirmed,
}

// SettingsOptions are the keys of start's options.settings: the game's
// settings, as Doom has them.
var SettingsOptions = []Option{
	{Name: "extraTics", Check: CheckInt, Min: 0, Max: 3, Default: 1},
	{Name: "deathmatch", Check: CheckInt, Min: 0, Max: 3, Default: 0},
	{Name: "episode", Check: CheckInt, Min: 1, Max: 4, Default: 1},
	{Name: "map", Check: CheckInt, Min: 1, Max: 32, Default: 1},
	{Name: "skill", Check: CheckInt, Min: 0, Max: 4, Default: 2},
	{Name: "timeLimit", Check: CheckInt, Min: 0, Max: MaxTimeLimit, Default: 0},
}

// ReplayOptions are the options playReplay takes: the game's callbacks
// as start takes them (input excepted: a replay builds no input), and the
// playback's own.
var ReplayOptions = []Option{
	optWasmURL, optOnEvent, optInputSize,
	optOnTic, optChecksum, optSave, optLoad, optPlayerChecksum,
	{Name: "setup", Check: CheckFunction},
	{Name: "speed", Check: CheckNumber, Min: 0, Default: 1},
	{Name: "paused", Check: CheckBool, Default: false},
}

// OptionOf returns the option of opts named name; ok is false when there
// is none.
func OptionOf(opts []Option, name string) (o Option, ok bool) {
	for _, o := range opts {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}
