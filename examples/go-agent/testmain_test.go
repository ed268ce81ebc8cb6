package main

import (
	"os"
	"testing"

	"github.com/rootbound/rootbound/internal/testtree"
)

func TestMain(m *testing.M) { os.Exit(testtree.Main(m)) }
