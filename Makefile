# ticnet: lockstep netcode for browser games. See README.md.
GO       ?= go
FUZZTIME ?= 60s
PORT     ?= 8080
WEB      := build/web
CYCLES   := build/cycles-xdc
NPM_DIR  := .npm-local

.PHONY: build web run test types lint unit e2e-setup bench fuzz xdc clean

# build compiles every package and the demo (ticnet.wasm and its page).
build: web
	$(GO) build ./...

# web assembles the demo in $(WEB): the page, the JS API and shim, the
# wasm; and the cycles example in $(WEB)/examples/cycles/.
web:
	@mkdir -p $(WEB)/examples/cycles
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags=-s -o $(WEB)/ticnet.wasm ./wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WEB)/
	cp js/shim.js js/ticnet.js js/ticnet.d.ts $(WEB)/
	cp web/quickstart.html web/quickstart.js web/index.html web/hooks.js web/main.js web/game.js web/draw.js web/replay.html web/replay.js web/synctest.html web/synctest.js web/style.css web/manifest.toml web/icon.png $(WEB)/
	cp web/examples/cycles/* $(WEB)/examples/cycles/

# run builds the demo and serves it on 127.0.0.1:$(PORT): open several tabs.
run: web
	$(GO) run ./web/serve -dir $(WEB) -addr 127.0.0.1:$(PORT)

# xdc packs the demo as a WebXDC app, and the cycles example as its own:
# its page at the root of $(CYCLES), beside the runtime (cycles.js finds
# the runtime in either layout) and the demo's manifest under its own name.
xdc: web
	$(GO) run ./web/serve -dir $(WEB) -pack dist/ticnet-demo.xdc
	rm -rf $(CYCLES) && mkdir -p $(CYCLES)
	cp web/examples/cycles/* $(addprefix $(WEB)/,ticnet.wasm wasm_exec.js shim.js ticnet.js hooks.js icon.png) $(CYCLES)/
	sed 's/^name = .*/name = "ticnet cycles"/' web/manifest.toml > $(CYCLES)/manifest.toml
	$(GO) run ./web/serve -dir $(CYCLES) -pack dist/ticnet-cycles.xdc

# test is what CI runs (.ci/run): formatting, vet, every unit and
# simulation test with the fuzzers' seed corpora, then the end-to-end tests,
# after installing what they need. The end-to-end tests run on their own:
# they measure real time in real browsers, which a busy CPU would skew.
test: lint e2e-setup web types
	$(GO) test -count=1 -timeout 25m $$($(GO) list ./... | grep -v /e2e)
	$(GO) test -count=1 -timeout 15m ./e2e/...

# types checks the examples against js/ticnet.d.ts (tsc from npm, which
# e2e-setup installs into $(NPM_DIR)).
types:
	$(NPM_DIR)/node_modules/.bin/tsc -p web/tsconfig.json

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm

unit:
	$(GO) test -count=1 ./netcore/... ./election/...

# e2e-setup installs the browser, the real Chocolate Doom and webxdc-dev
# when missing (Debian packages as root; npm into $(NPM_DIR)).
e2e-setup:
	sh e2e/setup.sh $(NPM_DIR)

bench: web
	$(GO) test -run='^$$' -bench=. -benchmem ./...
	@echo "== ticnet.wasm's code by package, and what each dependency adds (an unstripped build: the shipped one has no names)"
	GOOS=js GOARCH=wasm $(GO) build -trimpath -o build/ticnet-names.wasm ./wasm
	$(GO) run ./web/wasmsize -top 25 -deps ./wasm build/ticnet-names.wasm

# fuzz runs every Fuzz target for FUZZTIME each (go test runs one at a time).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; \
	    $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf build dist
