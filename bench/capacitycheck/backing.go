package main

import (
	"fmt"
	"syscall"
	"time"

	"github.com/prometheus/procfs"
)

// backingMargin is the free memory left untouched, for the kernel and this process.
const backingMargin = 1 << 30

// backingChunk is how much is mapped and touched at a time.
const backingChunk = 1 << 30

// backMemory writes once to each page of the memory this host has free, in anonymous
// mappings it then unmaps, so that the searches write into memory the hypervisor already
// backs. On a virtual machine the first write to a guest page faults into the host: here
// 4.04 s of CPU a GiB the first time and 0.45 s a GiB touched again, so a cluster writing
// 60 MB/s into memory never touched since boot (its log dirs in memory, or the page cache
// of a disk) pays about a fifth of a core more than one writing into memory touched before.
// It fell on the first search of a new machine, which found the lowest edge of three.
// reportingOn (free page reporting gives freed memory back to the host) makes it futile:
// what is freed is given back within seconds, and each write after pays again. It returns
// the line the bench prints.
func backMemory(proc procfs.FS, reportingOn bool) string {
	if reportingOn {
		return "host memory: not touched beforehand: free page reporting gives what is freed back to the host"
	}
	mi, err := proc.Meminfo()
	if err != nil || mi.MemFreeBytes == nil {
		return fmt.Sprintf("host memory: not touched beforehand: its free memory unread (%v)", err)
	}
	if *mi.MemFreeBytes <= backingMargin+backingChunk {
		return "host memory: not touched beforehand: less than 2 GiB free"
	}
	chunks := int((*mi.MemFreeBytes - backingMargin) / backingChunk)
	var maps [][]byte
	defer func() {
		for _, m := range maps {
			_ = syscall.Munmap(m)
		}
	}()
	var first time.Duration
	start := time.Now()
	for i := range chunks {
		m, err := touch(backingChunk)
		if err != nil {
			return fmt.Sprintf("host memory: touching it stopped after %d GiB: %v", i, err)
		}
		maps = append(maps, m)
		if i == 0 {
			first = time.Since(start)
		}
	}
	took := time.Since(start)
	for _, m := range maps {
		_ = syscall.Munmap(m)
	}
	maps = nil
	// Once more, into memory just freed: what a write costs once the host backs it.
	again := time.Now()
	m, err := touch(backingChunk)
	if err != nil {
		return fmt.Sprintf("host memory: %d GiB free touched once (%.2f s a GiB); touching it again: %v", chunks, took.Seconds()/float64(chunks), err)
	}
	againTook := time.Since(again)
	_ = syscall.Munmap(m)
	return fmt.Sprintf("host memory: %d GiB free touched once before the first search, so that no search writes into memory the host has yet to back: %.2f s a GiB (the first GiB %.2f s), %.2f s a GiB touched again",
		chunks, took.Seconds()/float64(chunks), first.Seconds(), againTook.Seconds())
}

// touch maps n bytes of anonymous memory and writes one byte to each of its pages.
func touch(n int) ([]byte, error) {
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, err
	}
	page := syscall.Getpagesize()
	for i := 0; i < n; i += page {
		m[i] = 1
	}
	return m, nil
}
