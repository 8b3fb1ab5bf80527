# ticnet: lockstep netcode for browser games. See README.md.
GO        ?= go
FUZZTIME  ?= 60s
PORT      ?= 8080

.PHONY: build run test unit lint bench fuzz xdc

build:
	$(GO) build ./...

# test is what CI runs (.ci/run): formatting, vet, every unit test with the
# fuzzers' seed corpora, and the end-to-end tests.
test: lint unit

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

# fuzz runs every Fuzz target for FUZZTIME each (go test runs one at a time).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; \
	    $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

run:
	@echo "make run: the browser demo comes with the browser issue (not built yet)"; exit 2

xdc:
	@echo "make xdc: the .xdc bundle comes with the browser issue (not built yet)"; exit 2
