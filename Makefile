# rootbound: make wasm | test | check | release | bench | fuzz | conformance
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c
GO       ?= go
# staticcheck, at a fixed version, fetched and built by the go command
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
WASM     := host/rootbound.wasm
# The one command that builds the committed module (host/module.go names it).
WASM_CMD := GOOS=wasip1 GOARCH=wasm $(GO) build -trimpath -buildvcs=false -ldflags=-buildid=
# A count, not a duration: see RATIONALE.md (go.dev/issue/75804).
FUZZTIME ?= 200000x
# FuzzLinks builds a tree on disk and runs the wazero host for each input
# (about 1,000 a second): it gets a count of its own.
FUZZLINKS ?= 5000x
# FuzzSplit answers each input with the native core n+1 times (about 700 a
# second): its own count too.
FUZZSPLIT ?= 20000x
# FuzzIndex builds an index and compiles a pattern twice (ours, Go's) each run.
FUZZINDEX ?= 20000x
# Minimizing each new input is bounded too: with Go's default of 60 s a run
# that finds new coverage can spend minutes shrinking inputs.
FUZZMIN ?= 10x

.PHONY: all wasm wasm-check build test hostile conformance portable component mcp-clients check cross release release-check bench fuzz tools

all: build

## wasm: rebuild the embedded module from guest/ (reproducible: same source, same bytes)
wasm:
	$(WASM_CMD) -o $(WASM) ./guest

## wasm-check: fail if the committed module is not what guest/ builds today
wasm-check:
	@tmp=$$(mktemp -d) && $(WASM_CMD) -o $$tmp/rootbound.wasm ./guest && \
	  if cmp -s $$tmp/rootbound.wasm $(WASM); then echo "wasm-check: $(WASM) is up to date"; rm -r $$tmp; \
	  else echo "wasm-check: $(WASM) differs from a fresh build of ./guest: run 'make wasm' and commit it"; rm -r $$tmp; exit 1; fi


## build: the rootbound command, into bin/ (VERSION is embedded: any build says it)
build:
	$(GO) build -o bin/rootbound ./host/cmd/rootbound

## tools: ripgrep, fd and git, which the agreement tests and the benchmark compare against; zsh, fish
## and groff, which run the completions and the manual page; umoci, which unpacks the release's image
TOOLS := rg:ripgrep fdfind:fd-find git:git zsh:zsh fish:fish groff:groff-base umoci:umoci
tools:
	@missing=; for t in $(TOOLS); do command -v $${t%%:*} >/dev/null || missing="$$missing $${t#*:}"; done; \
	  test -z "$$missing" || { apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; }

## test: the module is fresh, every package's tests pass, every host conforms, the hostile suite holds
## (with one temporary cache directory for the compiled module, removed after: tests write nothing else)
test: wasm-check tools
	@export GOCACHE="$$($(GO) env GOCACHE)" ROOTBOUND_TEST_CACHE="$$(mktemp -d)" && \
	  export XDG_CACHE_HOME="$$ROOTBOUND_TEST_CACHE" && trap 'rm -rf "$$ROOTBOUND_TEST_CACHE"' EXIT && \
	  echo "ROOTBOUND_COMPARE=1 $(GO) test -skip '$(HOSTILE)|TestConformance' $(filter-out ./release/...,$(ALL))" && \
	  ROOTBOUND_COMPARE=1 $(GO) test -skip '$(HOSTILE)|TestConformance' $(filter-out ./release/...,$(ALL)) && \
	  $(MAKE) --no-print-directory conformance && \
	  $(MAKE) --no-print-directory mcp-clients && \
	  $(MAKE) --no-print-directory hostile && \
	  $(MAKE) --no-print-directory portable && \
	  $(MAKE) --no-print-directory release-check

HOSTILE := TestHostile|TestSwapRace

# Modules of their own (go.work joins them for development): examples that
# need other SDKs, and the WIT test, so the library requires only what it
# uses. ALL is every package of every module.
MODULES := examples/anthropic-agent examples/openai-agent examples/wasmtime release wit
ALL     := ./... $(addprefix ./,$(addsuffix /...,$(MODULES)))

# The packages of the module's core, which build for wasip1 as well.
GUEST_PKGS := ./internal/index/... ./internal/match/... ./internal/ignore/... ./internal/meter/... ./internal/nofollow/... \
	./internal/search/... ./internal/server/... ./internal/walk/... ./internal/wire/...

## component: the module as a WASI 0.2 command component, transpiled for Node by jco (examples/component)
component:
	cd examples/component && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build

## conformance: every case of testdata/conformance on every runner (native, wazero, Node, component, wasmtime); prints runners x cases
conformance: component
	ROOTBOUND_ALL_RUNNERS=1 $(GO) test ./host -run TestConformance -count=1 -v | grep -E '^([|]|--- FAIL|FAIL|ok|panic)|conformance_test.go|^\s+(line [0-9]+$$|got: |want: )'

## mcp-clients: rootbound mcp driven by clients from npm, on Node: the official TypeScript SDK's (stdio and HTTP) and the MCP Inspector's CLI
mcp-clients:
	cd examples/mcp && npm ci --no-audit --no-fund --loglevel=error
	ROOTBOUND_ALL_RUNNERS=1 $(GO) test ./examples/mcp -count=1 -v | grep -E '^(ok|FAIL|--- FAIL|panic)|^\s+mcp_test.go|(ok|FAIL): '

## portable: conformance and the hostile suite with the wazero mount opening a path a component at a
## time (ROOTBOUND_NO_OPENAT2=1): the path macOS and the BSDs take, proven here. The suite's CPU and
## memory bounds (TestHostileBounds, TestHostileHostMemory) are left out: their calls open the same
## few files either way, and make hostile runs them.
PORTABLE_HOSTILE := TestHostile(Trees|Links|SpecialSwap|Arguments|Protocol|Concurrency|Deadline|Unreadable|RootSwap)|TestSwapRace
portable:
	ROOTBOUND_NO_OPENAT2=1 $(MAKE) --no-print-directory conformance hostile HOSTILE='$(PORTABLE_HOSTILE)'

## hostile: hostile trees and inputs on every runtime; prints the table of cases x runtimes
hostile:
	ROOTBOUND_ALL_RUNNERS=1 $(GO) test ./host -run '$(HOSTILE)' -count=1 -timeout 30m -v | grep -E '^([|]|hostile:|--- FAIL|FAIL|ok|panic)|(hostile|bounds|doors_linux)_test.go'

# The systems the command builds for: make check builds and vets every
# package of the module (tests too) for each, as the release builds it
# (no workspace, no cgo, -trimpath), so after make release-check the
# packages it compiled are reused. The other modules (examples, wit,
# release) are vetted for this system only.
CROSS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64 freebsd/amd64 freebsd/arm64

## cross: build and vet every package of the module, tests too, for each system of CROSS
cross:
	@for p in $(CROSS); do echo "GOOS=$${p%/*} GOARCH=$${p#*/} go vet -trimpath ./..."; \
	  GOWORK=off GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) vet -trimpath ./... || exit 1; done

## release: every artifact of a release into dist/, reproducibly (release/main.go says what)
release: wasm-check
	$(GO) run ./release -out dist

## release-check: make the release (twice) and check every artifact (release/release_test.go)
release-check: tools
	cd release && npm ci --no-audit --no-fund --loglevel=error
	ROOTBOUND_COMPARE=1 $(GO) test ./release -count=1 -timeout 30m -v | grep -E '^(ok|FAIL|--- |panic|\*\*\*)|^\s+(--- FAIL|release_test.go|Test)'

## check: build, vet, staticcheck, gofmt, go mod tidy, every system of CROSS; fails on any diff
check: wasm-check cross
	$(GO) build $(ALL)
	GOOS=wasip1 GOARCH=wasm $(GO) build ./guest/... ./protocol/... $(GUEST_PKGS)
	$(GO) vet $(ALL)
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./guest/... ./protocol/... $(GUEST_PKGS)
	@bin=$$(mktemp -d) && trap 'rm -rf "$$bin"' EXIT && GOBIN=$$bin $(GO) install $(STATICCHECK) && \
	  echo "staticcheck $(ALL)" && $$bin/staticcheck $(ALL) && \
	  echo "GOOS=wasip1 GOARCH=wasm staticcheck ./guest/... ./protocol/... $(GUEST_PKGS)" && \
	  GOOS=wasip1 GOARCH=wasm $$bin/staticcheck ./guest/... ./protocol/... $(GUEST_PKGS)
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	@for m in . $(MODULES); do (cd $$m && GOWORK=off $(GO) mod tidy) || exit 1; done
	git diff --exit-code -- go.mod go.sum $(addsuffix /go.mod,$(MODULES)) $(addsuffix /go.sum,$(MODULES))

## bench: rootbound against rg, fd and a native build of the core on $(go env GOROOT)
## (REAL=DIR adds issue 32's rows on a tree of public repositories: host/internal/bench/realtree.sh DIR writes it)
bench: tools
	$(GO) run ./host/internal/bench $(if $(REAL),-real $(REAL))

## fuzz: each fuzz target for FUZZTIME executions (default 200000x; FuzzLinks for FUZZLINKS, FuzzSplit for FUZZSPLIT, FuzzIndex for FUZZINDEX)
fuzz:
	$(GO) test ./protocol -run '^$$' -fuzz FuzzDecodeRequest -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/wire -run '^$$' -fuzz FuzzItemLine -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./protocol -run '^$$' -fuzz FuzzEscapeName -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./host/internal/escape -run '^$$' -fuzz FuzzPiped -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/match -run '^$$' -fuzz FuzzCompileGlob -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/match -run '^$$' -fuzz FuzzCompileLine -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/match -run '^$$' -fuzz FuzzPrefilter -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/match -run '^$$' -fuzz FuzzWildmatch -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/match -run '^$$' -fuzz FuzzWord -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/ignore -run '^$$' -fuzz FuzzRules -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/search -run '^$$' -fuzz FuzzLines -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/search -run '^$$' -fuzz FuzzSearchOptions -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/search -run '^$$' -fuzz FuzzDecodeUTF16 -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/meter -run '^$$' -fuzz FuzzCountByte -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./host -run '^$$' -fuzz FuzzPrepare -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./host -run '^$$' -fuzz FuzzLinks -fuzztime $(FUZZLINKS) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./host -run '^$$' -fuzz FuzzSplit -fuzztime $(FUZZSPLIT) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/index -run '^$$' -fuzz FuzzIndex -fuzztime $(FUZZINDEX) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/index -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/page -run '^$$' -fuzz FuzzPage -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/server -run '^$$' -fuzz FuzzRead -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./internal/server -run '^$$' -fuzz FuzzDecodeSaved -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
	$(GO) test ./protocol -run '^$$' -fuzz FuzzCutChunk -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
