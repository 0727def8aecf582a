// Command pause is the first process of every pod sandbox: it holds the pod's namespaces, reaps
// orphans that the pod's processes leave behind, and exits on SIGINT or SIGTERM. The cluster's
// containerd imports it as the sandbox image (deploy/cluster/up.sh), so no image comes from a
// registry.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range signals {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
