module github.com/rootbound/rootbound/examples/openai-agent

go 1.26.8

require (
	github.com/openai/openai-go/v3 v3.98.0
	github.com/rootbound/rootbound v0.0.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/rootbound/rootbound => ../..
