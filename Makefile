# ticnet: lockstep netcode for browser games. See README.md.
GO       ?= go
FUZZTIME ?= 60s
PORT     ?= 8080
# BUILD and DIST are where builds and packages go (the tests give their own).
BUILD    ?= build
DIST     ?= dist
RUNTIME  := $(BUILD)/runtime
WEB      := $(BUILD)/web
NPM_PKG  := $(BUILD)/npm
NPM_DIR  := .npm-local
# What a page needs beside it: ticnet.js loads the others from beside itself.
# (detmath.js, the deterministic math, is in $(RUNTIME) for a game that
# imports it to copy into its folder.)
PAGE_RUNTIME := ticnet.js shim.js wasm_exec.js ticnet.wasm
# The demo's page (web/): its files, and its example games' folders.
DEMO     := index.html hooks.js main.js game.js draw.js replay.html replay.js diff.html diff.js synctest.html synctest.js \
            quickstart.html quickstart.js style.css manifest.toml icon.png
EXAMPLES := cycles

.PHONY: build runtime web run test test-rest types lint unit e2e-setup bench fuzz xdc npm clean

# build compiles every package and the demo (ticnet.wasm and its page).
build: web
	$(GO) build ./...

# runtime builds what a page needs into $(RUNTIME): ticnet.wasm, Go's
# loader wasm_exec.js, the shim, the API module and its types, and the
# deterministic math module and its types.
runtime:
	@mkdir -p $(RUNTIME)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags=-s -o $(RUNTIME)/ticnet.wasm ./wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" js/shim.js js/ticnet.js js/ticnet.d.ts js/detmath.js js/detmath.d.ts $(RUNTIME)/

# web assembles the demo in $(WEB), beside the runtime, and each example
# game in $(WEB)/examples/NAME/, a game folder with the runtime beside it.
web: runtime
	@mkdir -p $(WEB)
	cp $(RUNTIME)/* $(addprefix web/,$(DEMO)) $(WEB)/
	@set -e; for g in $(EXAMPLES); do \
	  mkdir -p $(WEB)/examples/$$g; \
	  cp web/examples/$$g/* $(addprefix $(RUNTIME)/,$(PAGE_RUNTIME)) $(WEB)/examples/$$g/; \
	done

# run builds the demo and serves it on 127.0.0.1:$(PORT): open several tabs.
run: web
	$(GO) run ./web/serve -dir $(WEB) -addr 127.0.0.1:$(PORT)

# xdc packs a game folder as a WebXDC app: make xdc GAME=path/to/game
# writes $(DIST)/NAME.xdc (NAME: the folder's) with every file of the
# folder, ticnet's runtime beside index.html, and a manifest.toml naming
# it NAME when the folder has none. Without GAME it packs the demo and the
# examples (dist/ticnet-demo.xdc, dist/ticnet-cycles.xdc).
xdc: $(if $(GAME),runtime,web)
ifneq ($(GAME),)
	$(GO) run ./web/serve -dir "$(GAME)" -runtime "$(addprefix $(RUNTIME)/,$(PAGE_RUNTIME))" -pack "$(DIST)/$(notdir $(abspath $(GAME))).xdc"
else
	$(GO) run ./web/serve -dir $(WEB) -pack $(DIST)/ticnet-demo.xdc
	@set -e; for g in $(EXAMPLES); do \
	  $(GO) run ./web/serve -dir web/examples/$$g -runtime "$(addprefix $(RUNTIME)/,$(PAGE_RUNTIME))" -pack $(DIST)/ticnet-$$g.xdc; \
	done
endif

# npm builds the npm package in $(NPM_PKG) (js/package.json, the README
# and the runtime) and packs it as $(DIST)/ticnet-VERSION.tgz, which
# `npm install ./ticnet-VERSION.tgz` installs.
npm: runtime
	rm -rf $(NPM_PKG) && mkdir -p $(NPM_PKG) $(DIST)
	cp js/package.json README.md $(addprefix $(RUNTIME)/,$(PAGE_RUNTIME) ticnet.d.ts detmath.js detmath.d.ts) $(NPM_PKG)/
	cd $(NPM_PKG) && npm pack --pack-destination "$(abspath $(DIST))"

# SIM are the simulation suites: seeded whole games in virtual time, no
# clock read, no socket opened; CPU alone, most of the unit tests' CPU.
SIM := ./netcore/scenario ./election/session
# IDLE runs a command on the CPU no other process wants (Linux's
# SCHED_IDLE; nice 19 where chrt cannot set it).
IDLE := $(shell chrt --idle 0 true 2>/dev/null && echo chrt --idle 0 || echo nice -n 19)

# test is what CI runs (.ci/run): formatting, vet, every unit test with the
# fuzzers' seed corpora, then the end-to-end tests, after installing what
# they need (test-rest). The simulation suites run from the start beside
# all of it, on the CPU the rest leaves (IDLE): the end-to-end tests
# measure real time in real browsers, which a busy CPU would skew, and the
# simulations read no clock. Their output follows; a failure of the rest
# ends them (setsid: they are a process group of their own).
# docs/tests.md, "How long make test takes", has the measurements.
test:
	@sim=$$(mktemp); \
	echo "$(IDLE) $(GO) test -count=1 -timeout 30m $(SIM) (beside the rest)"; \
	setsid $(IDLE) $(GO) test -count=1 -timeout 30m $(SIM) > $$sim 2>&1 & pid=$$!; \
	if ! $(MAKE) --no-print-directory test-rest; then kill -- -$$pid 2>/dev/null; wait $$pid; cat $$sim; rm -f $$sim; exit 1; fi; \
	wait $$pid; code=$$?; \
	echo "== the simulation suites, run beside the rest:"; cat $$sim; rm -f $$sim; \
	exit $$code

# test-rest is make test but the simulation suites.
test-rest: lint e2e-setup web types
	$(GO) test -count=1 -timeout 10m $$($(GO) list ./... | grep -v -e /e2e $(foreach p,$(SIM),-e '$(patsubst ./%,%,$(p))$$'))
	$(GO) test -count=1 -timeout 20m ./e2e/...

# types checks the examples against js/ticnet.d.ts (tsc from npm, which
# e2e-setup installs into $(NPM_DIR)), and a game in strict TypeScript
# (web/typed-options.ts) that types its launch options.
types:
	$(NPM_DIR)/node_modules/.bin/tsc -p web/tsconfig.json
	$(NPM_DIR)/node_modules/.bin/tsc -p web/tsconfig.strict.json

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
	rm -rf $(BUILD) $(DIST)
