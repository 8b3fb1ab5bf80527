package session

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ticnet.d.ts is written for people; these tests hold it to schema.go,
// which the wasm builds events from and ticnet.js checks options with.
// They read the declarations with a parser just big enough for the
// file's shapes: "export interface Name { members }" and "export type
// Name = ...;", whose object literals ({ members }) are read alike; a
// member is "name?: type" or "name?(args): result", with the JSDoc
// comment before it.

const dtsPath = "../../js/ticnet.d.ts"

// member is one member of a declaration in ticnet.d.ts.
type member struct {
	name     string
	optional bool
	method   bool
	ts       string // the type, spaces collapsed ("" for a method)
	doc      string // the JSDoc comment before it
}

// decl is one exported declaration: its text after the name, and the
// members of its object bodies.
type decl struct {
	text    string
	members []member
}

var spaces = regexp.MustCompile(`\s+`)

// parseDTS returns the exported interfaces and types of src by name.
func parseDTS(t *testing.T, src string) map[string]decl {
	decls := map[string]decl{}
	head := regexp.MustCompile(`(?m)^export (interface|type) (\w+)`)
	for _, m := range head.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[4]:m[5]]
		rest := src[m[1]:]
		end := declEnd(rest, src[m[2]:m[3]] == "interface")
		d := decl{text: rest[:end]}
		for _, body := range bodies(d.text) {
			d.members = append(d.members, parseMembers(t, body)...)
		}
		decls[name] = d
	}
	return decls
}

// scan walks s as TypeScript: it hands comment each comment (its text
// and where it ends), skips "=>", keeps the depth of brackets, and hands
// at every other byte (the depth after it) until at returns false.
func scan(s string, comment func(text string, end int), at func(i int, c byte, depth int) bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.HasPrefix(s[i:], "/*"):
			end := i + strings.Index(s[i:], "*/") + 2
			comment(s[i:end], end)
			i = end - 1
			continue
		case strings.HasPrefix(s[i:], "//"):
			i += strings.IndexByte(s[i:], '\n')
			comment("", i+1)
			continue
		case strings.HasPrefix(s[i:], "=>"):
			i++
			continue
		case strings.IndexByte("{[(<", c) >= 0:
			depth++
		case strings.IndexByte("}])>", c) >= 0:
			depth--
		}
		if !at(i, c, depth) {
			return
		}
	}
}

// declEnd is where the declaration that s begins ends: an interface's
// closing brace, a type's ";" outside brackets.
func declEnd(s string, iface bool) int {
	end := len(s)
	scan(s, func(string, int) {}, func(i int, c byte, depth int) bool {
		switch {
		case iface && depth == 0 && c == '}':
			end = i + 1
		case !iface && depth == 0 && c == ';':
			end = i
		default:
			return true
		}
		return false
	})
	return end
}

// bodies returns the outermost "{ ... }" of s, without their braces.
func bodies(s string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			if depth == 0 {
				from = i + 1
			}
			depth++
		case '}':
			depth--
			if depth == 0 {
				out = append(out, s[from:i])
			}
		}
	}
	return out
}

var memberHead = regexp.MustCompile(`^(?:readonly\s+)?(\w+)(\?)?\s*(?:<[^(]*>)?\s*([:(])`)

// parseMembers reads the members of an object body, each ending at a
// ";" outside brackets (or at the body's end).
func parseMembers(t *testing.T, body string) []member {
	var out []member
	var doc strings.Builder
	from := 0
	flush := func(i int) {
		text := strings.TrimSpace(body[from:i])
		from = i + 1
		if text == "" {
			return
		}
		m := memberHead.FindStringSubmatch(text)
		require.NotNil(t, m, "a member of ticnet.d.ts this parser cannot read: %q", text)
		mb := member{name: m[1], optional: m[2] == "?", method: m[3] == "(", doc: doc.String()}
		if !mb.method {
			mb.ts = spaces.ReplaceAllString(strings.TrimSpace(text[len(m[0]):]), " ")
		}
		out = append(out, mb)
		doc.Reset()
	}
	scan(body, func(text string, end int) {
		doc.WriteString(text)
		from = end
	}, func(i int, c byte, depth int) bool {
		if c == ';' && depth == 0 {
			flush(i)
		}
		return true
	})
	flush(len(body))
	return out
}

func readDTS(t *testing.T) map[string]decl {
	src, err := os.ReadFile(dtsPath)
	require.NoError(t, err)
	return parseDTS(t, string(src))
}

// TestTicnetDTSDeclaresEveryEventAsTheWasmBuildsIt: TicnetEvent is the
// union of EventKinds' interfaces, in their order, and each declares its
// kind and exactly the fields the wasm sets (names, order, optionality,
// types).
func TestTicnetDTSDeclaresEveryEventAsTheWasmBuildsIt(t *testing.T) {
	decls := readDTS(t)
	union, ok := decls["TicnetEvent"]
	require.True(t, ok, "ticnet.d.ts declares no TicnetEvent")
	var names []string
	typeParams := regexp.MustCompile(`^<[^>]*>\s*`) // <O = unknown>: the launch options' type
	for _, n := range strings.Split(strings.TrimPrefix(typeParams.ReplaceAllString(strings.TrimSpace(union.text), ""), "="), "|") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, strings.TrimSuffix(n, "<O>"))
		}
	}
	var want []string
	for _, k := range EventKinds {
		want = append(want, k.TS)
	}
	assert.Equal(t, want, names, "TicnetEvent's members (got), EventKinds' interfaces (want)")

	for _, k := range EventKinds {
		d, ok := decls[k.TS]
		if !assert.True(t, ok, "ticnet.d.ts declares no %s (kind %q)", k.TS, k.Name) ||
			!assert.NotEmpty(t, d.members, "ticnet.d.ts declares %s (kind %q) without members", k.TS, k.Name) {
			continue
		}
		assert.Equal(t, member{name: "kind", ts: strconv.Quote(k.Name)}, d.members[0], "%s's first member", k.TS)
		type field struct {
			Name, TS string
			Optional bool
		}
		var got, want []field
		for _, m := range d.members[1:] {
			got = append(got, field{m.name, m.ts, m.optional})
		}
		for _, f := range k.Fields {
			want = append(want, field{f.Name, f.TS, f.Optional})
		}
		assert.Equal(t, want, got, "the fields of %s (kind %q): schema.go's (want), ticnet.d.ts's (got)", k.TS, k.Name)
	}
}

// TestEveryEventFieldReadsItsKindsEvent: an event of each kind gives a
// value for every field of its kind but an optional one left zero, and
// its optional fields, when set, give theirs.
func TestEveryEventFieldReadsItsKindsEvent(t *testing.T) {
	for _, k := range EventKinds {
		e := Event{Kind: k.Name}
		for _, f := range k.Fields {
			assert.Equal(t, f.Optional, f.Value(&e) == nil, "%s.%s of a zero event: optional (want) and valueless (got); value %v", k.Name, f.Name, f.Value(&e))
		}
	}
	full := Event{Name: "ann", Options: []byte{0, 1}}
	for _, f := range []Field{fieldName, fieldOptions} {
		assert.NotNil(t, f.Value(&full), "%s of an event that has it", f.Name)
	}
	assert.Nil(t, FieldsOf("no such kind"), "FieldsOf an unknown kind")
}

// optionMembers returns the members of decls' names (a type's object
// bodies, and the names it Picks from the game's interfaces) by name.
func optionMembers(decls map[string]decl, names ...string) map[string][]member {
	out := map[string][]member{}
	picked := regexp.MustCompile(`Pick<(\w+), ([^>]*)>`)
	for _, n := range names {
		for _, m := range decls[n].members {
			out[m.name] = append(out[m.name], m)
		}
		for _, p := range picked.FindAllStringSubmatch(decls[n].text, -1) {
			for _, q := range regexp.MustCompile(`"(\w+)"`).FindAllStringSubmatch(p[2], -1) {
				for _, m := range decls[p[1]].members {
					if m.name == q[1] {
						out[m.name] = append(out[m.name], m)
					}
				}
			}
		}
	}
	return out
}

// checkOptions holds the members of ticnet.d.ts that declare opts to
// them: the same names; per option, its type as its check has it, and
// its limits and default stated in a member's comment ("2 to 8",
// "default 8", "at most 29 bytes", "0 or more").
func checkOptions(t *testing.T, what string, opts []Option, members map[string][]member) {
	var goNames, tsNames []string
	for _, o := range opts {
		goNames = append(goNames, o.Name)
	}
	for n := range members {
		tsNames = append(tsNames, n)
	}
	slices.Sort(goNames)
	slices.Sort(tsNames)
	assert.Equal(t, goNames, tsNames, "%s: schema.go's options (want), ticnet.d.ts's (got)", what)
	for _, o := range opts {
		ms := members[o.Name]
		if len(ms) == 0 {
			continue
		}
		var docs, types []string
		for _, m := range ms {
			docs = append(docs, spaces.ReplaceAllString(m.doc, " "))
			types = append(types, m.ts)
		}
		doc := strings.Join(docs, " ")
		states := func(text string) {
			re := regexp.MustCompile(`(^|\W)` + regexp.QuoteMeta(text) + `(\W|$)`)
			assert.Regexp(t, re, doc, "%s: ticnet.d.ts's comment on %s does not say %q", what, o.Name, text)
		}
		wantTS := map[Check]string{CheckInt: "number", CheckNumber: "number", CheckBool: "boolean", CheckString: "string"}[o.Check]
		if len(o.Values) > 0 {
			q := make([]string, len(o.Values))
			for i, v := range o.Values {
				q[i] = strconv.Quote(v)
			}
			if o.Check == CheckInt {
				q = append([]string{"number"}, q...) // an integer, or one of Values
			}
			wantTS = strings.Join(q, " | ")
		}
		switch {
		case o.Check == CheckFunction:
			assert.True(t, ms[0].method || strings.Contains(ms[0].ts, "=>"), "%s: %s is no function in ticnet.d.ts", what, o.Name)
		case wantTS != "":
			assert.Contains(t, types, wantTS, "%s: %s's types in ticnet.d.ts", what, o.Name)
		}
		switch o.Check {
		case CheckInt:
			states(strconv.Itoa(o.Min) + " to " + strconv.Itoa(o.Max))
		case CheckNumber:
			states(strconv.Itoa(o.Min) + " or more")
		}
		if o.MaxBytes > 0 {
			states("at most " + strconv.Itoa(o.MaxBytes) + " bytes")
		}
		switch d := o.Default.(type) {
		case int:
			states("default " + strconv.Itoa(d))
		case bool:
			states("default " + strconv.FormatBool(d))
		case string:
			states("default " + strconv.Quote(d))
		}
	}
}

// TestTicnetDTSStatesTheOptionsAsTheWasmChecksThem: start's options,
// its settings and playReplay's, as ticnet.d.ts declares them, are
// schema.go's, with the same limits and defaults; and so is the bound of
// launch options.
func TestTicnetDTSStatesTheOptionsAsTheWasmChecksThem(t *testing.T) {
	decls := readDTS(t)
	for _, n := range []string{"CommonOptions", "TicCmdGame", "OpaqueGame", "Settings", "ReplayOptions", "ReplayGame", "LaunchOptions"} {
		require.Contains(t, decls, n, "ticnet.d.ts declares no %s", n)
	}
	checkOptions(t, "start", StartOptions, optionMembers(decls, "CommonOptions", "TicCmdGame", "OpaqueGame"))
	checkOptions(t, "settings", SettingsOptions, optionMembers(decls, "Settings"))
	checkOptions(t, "playReplay", ReplayOptions, optionMembers(decls, "ReplayOptions", "ReplayGame"))

	launch := optionMembers(decls, "LaunchOptions")["options"]
	bound := "at most " + strconv.Itoa(wire.MaxLaunchOptions) + " bytes"
	require.Len(t, launch, 1, "ticnet.d.ts's LaunchOptions.options")
	assert.Contains(t, spaces.ReplaceAllString(launch[0].doc, " "), bound, "ticnet.d.ts's LaunchOptions.options does not say %q", bound)
}

// TestEveryKindTheSessionEmitsHasItsFields: each kind of event the
// session and the browser binding make (an Event literal's Kind, in
// their source) is one of EventKinds, so that the wasm gives its fields.
func TestEveryKindTheSessionEmitsHasItsFields(t *testing.T) {
	kindLit := regexp.MustCompile(`Kind: "(\w+)"`)
	var files []string
	for _, dir := range []string{".", "../../wasm"} {
		fs, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, f := range fs {
			if strings.HasSuffix(f.Name(), ".go") && !strings.HasSuffix(f.Name(), "_test.go") {
				files = append(files, dir+"/"+f.Name())
			}
		}
	}
	seen := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range kindLit.FindAllStringSubmatch(string(src), -1) {
			seen++
			assert.True(t, slices.ContainsFunc(EventKinds, func(k EventKind) bool { return k.Name == m[1] }),
				"%s makes events of kind %q, which EventKinds does not have", f, m[1])
		}
	}
	assert.GreaterOrEqual(t, seen, 20, "event literals found in the session's and the wasm's source")
}

// tsOf is the type ticnet.d.ts declares a field of Stats with: its ts
// tag, or else what its Go type is in JS.
func tsOf(f reflect.StructField) string {
	if ts := f.Tag.Get("ts"); ts != "" {
		return ts
	}
	switch f.Type.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64, reflect.Uint32, reflect.Float64:
		return "number"
	}
	return "a Go " + f.Type.String() + " needs a ts tag"
}

// TestTicnetDTSDeclaresStatsAsStatsReturnsThem: ticnet.d.ts's Stats has
// the fields of session.Stats (which the wasm hands stats() by their JSON
// names: the e2e test TestFourTabsElectOneServerAndPlayInStep checks the
// real object), in their order and with their types, and its Peer those
// of session.Peer; and its channel
// has the fields of shim.js's stats, which ticnet.js adds with kind.
func TestTicnetDTSDeclaresStatsAsStatsReturnsThem(t *testing.T) {
	d, ok := readDTS(t)["Stats"]
	if !ok {
		t.Fatal("ticnet.d.ts declares no Stats")
	}
	type field struct {
		Name, TS string
		Optional bool
	}
	var want, got []field
	var channel *member
	for _, m := range d.members {
		if m.name == "channel" {
			channel = &m
			continue
		}
		got = append(got, field{m.name, m.ts, m.optional})
	}
	for f := range reflect.TypeFor[Stats]().Fields() {
		want = append(want, field{strings.Split(f.Tag.Get("json"), ",")[0], tsOf(f), false})
	}
	assert.Equal(t, want, got, "the fields of Stats: session.Stats's (want), ticnet.d.ts's (got)")
	peer, ok := readDTS(t)["Peer"]
	require.True(t, ok, "ticnet.d.ts declares no Peer")
	want, got = nil, nil
	for _, m := range peer.members {
		got = append(got, field{m.name, m.ts, m.optional})
	}
	for f := range reflect.TypeFor[Peer]().Fields() {
		want = append(want, field{strings.Split(f.Tag.Get("json"), ",")[0], tsOf(f), false})
	}
	assert.Equal(t, want, got, "the fields of Peer: session.Peer's (want), ticnet.d.ts's (got)")

	shim, err := os.ReadFile("../../js/shim.js")
	require.NoError(t, err)
	lit := regexp.MustCompile(`const stats = \{([^}]*)\}`).FindSubmatch(shim)
	require.NotNil(t, lit, "no stats literal in shim.js")
	require.NotNil(t, channel, "no channel in ticnet.d.ts's Stats")
	want = []field{{"kind", `"webxdc" | "broadcast"`, false}}
	for _, k := range regexp.MustCompile(`(\w+):`).FindAllSubmatch(lit[1], -1) {
		want = append(want, field{string(k[1]), "number", false})
	}
	got = nil
	for _, m := range parseMembers(t, bodies(channel.ts)[0]) {
		got = append(got, field{m.name, m.ts, m.optional})
	}
	assert.Equal(t, want, got, "Stats.channel: shim.js's stats and kind (want), ticnet.d.ts's (got)")
}

// TestTicnetDTSDeclaresLobbyAsTheSessionReportsIt: ticnet.d.ts's Lobby
// has session.LobbyReport's fields by their JSON names, in their order,
// and its players those of LobbyPlayer (the wasm's lobbyObject sets each).
func TestTicnetDTSDeclaresLobbyAsTheSessionReportsIt(t *testing.T) {
	d, ok := readDTS(t)["Lobby"]
	require.True(t, ok, "ticnet.d.ts declares no Lobby")
	jsonNames := func(typ reflect.Type) []string {
		var names []string
		for f := range typ.Fields() {
			names = append(names, strings.Split(f.Tag.Get("json"), ",")[0])
		}
		return names
	}
	var got, gotPlayer []string
	for _, m := range d.members {
		got = append(got, m.name)
		if m.name == "players" {
			for _, pm := range parseMembers(t, bodies(m.ts)[0]) {
				gotPlayer = append(gotPlayer, pm.name)
			}
		}
	}
	assert.Equal(t, jsonNames(reflect.TypeFor[LobbyReport]()), got, "Lobby: LobbyReport's fields (want), ticnet.d.ts's (got)")
	assert.Equal(t, jsonNames(reflect.TypeFor[LobbyPlayer]()), gotPlayer, "Lobby.players: LobbyPlayer's fields (want), ticnet.d.ts's (got)")
}

// TestTicnetJSPassesEveryOptionTheWasmReads: ticnet.js hands the wasm a
// config of its own making (not the page's options object), and the wasm
// reads it by name (wasm/config.go): every name the wasm reads is a key of
// that config. (minInputDelay and maxInputDelay were once checked and
// then dropped: the automatic delay kept its default bounds.)
func TestTicnetJSPassesEveryOptionTheWasmReads(t *testing.T) {
	js, err := os.ReadFile("../../js/ticnet.js")
	require.NoError(t, err)
	wasm, err := os.ReadFile("../../wasm/config.go")
	require.NoError(t, err)
	lit := regexp.MustCompile(`(?s)\n  const config = \{(\s*name: .*?)\n  \};`).FindSubmatch(js)
	require.NotNil(t, lit, "no config literal in ticnet.js")
	keys := map[string]bool{}
	key := regexp.MustCompile(`^(\w+)\s*(:|$)`) // name: value, or name alone
	for _, piece := range strings.Split(string(lit[1]), ",") {
		if m := key.FindStringSubmatch(strings.TrimSpace(piece)); m != nil {
			keys[m[1]] = true
		}
	}
	for _, k := range []string{"predict", "profile", "startTime", "token"} {
		require.True(t, keys[k], "the config literal as found lacks %q: %s", k, lit[1])
	}
	var read []string
	for _, m := range regexp.MustCompile(`(?:opt|x\.get\(page,) ?\(?"(\w+)"\)`).FindAllSubmatch(wasm, -1) {
		read = append(read, string(m[1]))
	}
	require.GreaterOrEqual(t, len(read), 12, "names the wasm reads, as found: %v", read)
	for _, name := range read {
		assert.True(t, keys[name], "the wasm reads %q, which ticnet.js's config does not pass", name)
	}
}
