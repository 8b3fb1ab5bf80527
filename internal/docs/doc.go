// Package docs holds no code: its tests keep the repository's Markdown
// true. Every relative link and anchor in README.md and docs/*.md must
// resolve, and the README's quick starts must be the files that run
// (web/quickstart.*, and netcore's Example, which go test runs). It sits
// under internal so that `make test`, which tests every package but e2e,
// runs it, and no package of the engine carries a test of prose.
package docs
