package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository's root, two folders up from this package.
const root = "../.."

// markdown returns README.md and docs/*.md, by path from the root.
func markdown(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEqual(t, 0, len(files), "no docs/*.md found")
	return append([]string{filepath.Join(root, "README.md")}, files...)
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

var (
	fence   = regexp.MustCompile("(?m)^```")
	link    = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	heading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
)

// prose is text with its fenced code blocks taken out: a link in code is
// no link.
func prose(text string) string {
	parts := fence.Split(text, -1)
	var b strings.Builder
	for i := 0; i < len(parts); i += 2 {
		b.WriteString(parts[i])
	}
	return b.String()
}

// anchors are the fragments GitHub gives a file's headings: lower case,
// spaces to hyphens, punctuation but hyphens and underscores dropped, a
// repeated one numbered.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(prose(text), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestEveryLinkInTheDocsResolves: every relative link of README.md and
// docs/*.md names a file or folder of the repository, and every anchor a
// heading of the Markdown file it points into.
func TestEveryLinkInTheDocsResolves(t *testing.T) {
	checked := 0
	for _, file := range markdown(t) {
		text := read(t, file)
		for _, m := range link.FindAllStringSubmatch(prose(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			path, frag, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), path)
				if _, err := os.Stat(dest); !assert.NoError(t, err, "%s: link %q: no such file", file, target) {
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !assert.True(t, strings.HasSuffix(dest, ".md"), "%s: link %q: an anchor into a file that is not Markdown", file, target) {
				continue
			}
			assert.True(t, anchors(read(t, dest))[frag], "%s: link %q: %s has no heading #%s", file, target, dest, frag)
		}
	}
	require.NotEqual(t, 0, checked, "no relative link found: the link pattern is broken")
	t.Logf("%d relative links checked", checked)
}

// TestTheREADMEIsAPlaceToStart: the README stays short; the rest is in docs/.
func TestTheREADMEIsAPlaceToStart(t *testing.T) {
	const most = 300
	n := strings.Count(read(t, filepath.Join(root, "README.md")), "\n")
	assert.LessOrEqual(t, n, most, "README.md has %d lines, more than %d: move the details to docs/", n, most)
}

// blocks returns the README's fenced code blocks of a language.
func blocks(text, lang string) []string {
	var out []string
	for rest := text; ; {
		i := strings.Index(rest, "\n```"+lang+"\n")
		if i < 0 {
			return out
		}
		rest = rest[i+len("\n```"+lang+"\n"):]
		j := strings.Index(rest, "\n```")
		if j < 0 {
			return out
		}
		out = append(out, rest[:j+1])
		rest = rest[j:]
	}
}

// TestTheREADMEsQuickStartsAreTheFilesThatRun: the JavaScript quick start
// is web/quickstart.html and web/quickstart.js as they are (make web
// serves them, make types checks the script against ticnet.d.ts), and the
// Go quick start is the Example in netcore/example_test.go, which go test
// runs and checks.
func TestTheREADMEsQuickStartsAreTheFilesThatRun(t *testing.T) {
	readme := read(t, filepath.Join(root, "README.md"))
	for _, c := range []struct{ lang, file string }{
		{"html", "web/quickstart.html"},
		{"js", "web/quickstart.js"},
		{"go", "netcore/example_test.go"},
	} {
		bs := blocks(readme, c.lang)
		if !assert.Equal(t, 1, len(bs), "README.md's %s blocks: want the one quick start", c.lang) {
			continue
		}
		src := read(t, filepath.Join(root, c.file))
		if c.lang == "go" {
			assert.True(t, strings.Contains(bs[0], "func Example()"), "README.md's Go quick start is not an Example")
			assert.True(t, strings.Contains(src, bs[0]), "README.md's Go quick start is not the Example in %s, as it is there", c.file)
		} else {
			assert.Equal(t, src, bs[0], "README.md's %s quick start differs from %s", c.lang, c.file)
		}
	}
}
