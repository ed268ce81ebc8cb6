module github.com/rootbound/rootbound/wit

go 1.26.8

require (
	github.com/rootbound/rootbound v0.0.0
	go.bytecodealliance.org v0.6.2
)

require (
	github.com/coreos/go-semver v0.3.1 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/rootbound/rootbound => ..
