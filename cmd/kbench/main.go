// Command kbench measures Apache Kafka: it starts a cluster, runs studies of producer and
// consumer scenarios, and writes the white paper. See README.md.
package main

import (
	"os"

	"github.com/kbench/kbench/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
