# ioctl-scan: top-level targets. Run as root on Debian 12:
#   make scan    install what is missing, prepare the 6.1 tree, scan it
#   make test    every test (analyzer, real tree, ...)
#   make bench   ioctl-scan against clang -fsyntax-only on the same files
#   make generate      scan the tree, write generated/linux-<release>/
#   make kernel-patch  regenerate kernel-glue/linux-<ver>/series/
#   make qemu-check    boot the patched kernel and check it enforces the table
SHELL := /bin/bash

KVER ?= 6.1
BUILD ?= $(CURDIR)/build
KSRC ?= $(BUILD)/linux-source-$(KVER)
KOBJ ?= $(BUILD)/obj-$(KVER)
KTAR ?= /usr/src/linux-source-$(KVER).tar.xz
# allmodconfig: every driver that can be a module is on, so as much driver
# code as possible is visible to the parser (see README).
KCONFIG ?= allmodconfig
REPORT ?= $(BUILD)/report-$(KVER).json
# each parsed file's facts, reused while the file, its headers and flags are
# unchanged (analyzer/src/facts_cache.h); shared by scan, generate and test
export IOCTL_SCAN_CACHE_DIR ?= $(BUILD)/facts-cache
# a release's whole tree takes 0.6 to 0.8 GB of it (6.1.192 642 MiB,
# 6.12.118 766 MiB, allmodconfig), and entries of earlier facts formats
# stay until they are the least recently used: room for both releases,
# a point release and those, so that a scan of one does not evict the
# other's facts (the program's own default, 2G, is for an installed binary)
CACHE_MAX ?= 6G
PATHS ?=
JOBS ?= $(shell nproc)

SCAN := analyzer/ioctl-scan
KMAKE := $(MAKE) -s -C $(KSRC) O=$(KOBJ) LLVM=-14

# Debian packages each part needs; `make deps` installs what is missing.
DEPS_ANALYZER := gcc make libclang-14-dev clang-14 llvm-14 lld-14 libjansson-dev libssl-dev
# git: make-series.sh builds the series with git am and format-patch
DEPS_KERNEL := linux-source-6.1 linux-source-6.12 linux-source-$(KVER) linux-config-$(KVER) \
	flex bison bc libelf-dev libssl-dev xz-utils git
DEPS_QEMU := qemu-system-x86 busybox-static checkpolicy cpio ccache sparse libc6-dev kmod
# perl runs checkpatch.pl, patch applies the series (t60), man-db formats
# the man pages (t47), python3 damages cache entries (t41), secilc and m4
# compile and expand the xperm rules (t46), GNU time measures make bench:
# used by the tests, so listed, not left to recommends (t05 checks that
# every command the Makefiles and tests call comes from this list)
DEPS_TESTS := perl patch man-db python3 secilc m4 time
# chromium: the review page is tested in a real headless browser
DEPS_REVIEW := chromium
DEPS := $(DEPS_ANALYZER) $(DEPS_KERNEL) $(DEPS_QEMU) $(DEPS_TESTS) $(DEPS_REVIEW)

# generated/linux-<release>/: the release as the tree's Makefile says it
RELEASE = $(shell sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' \
	$(KSRC)/Makefile 2>/dev/null | paste -sd.)
GEN_DIR = generated/linux-$(RELEASE)
GLUE_DIR := kernel-glue/linux-$(KVER)

.PHONY: all deps print-deps analyzer tree scan test bench generate kernel-patch qemu-check install clean distclean

all: analyzer

deps:
	@missing=""; for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# the package list, one line (analyzer/tests/t05-packages.sh checks that
# every command the Makefiles and tests call comes from it)
print-deps:
	@echo $(DEPS)

analyzer: deps
	$(MAKE) -s -C analyzer

# The kernel tree: extracted once, configured and prepared once (stamps).
tree: $(KOBJ)/.ioctl-scan-prepared

$(KSRC)/.ioctl-scan-extracted: | deps
	@mkdir -p $(BUILD)
	@test -f $(KTAR) || { echo "$(KTAR) missing: apt-get install linux-source-$(KVER)"; exit 2; }
	@echo "extracting $(KTAR) into $(BUILD)"
	@tar -C $(BUILD) -xf $(KTAR)
	@touch $@

$(KOBJ)/.ioctl-scan-prepared: $(KSRC)/.ioctl-scan-extracted
	@echo "configuring ($(KCONFIG)) and preparing $(KOBJ)"
	@mkdir -p $(KOBJ)
	@$(KMAKE) $(KCONFIG) >/dev/null
	@$(KMAKE) -j$(JOBS) prepare >/dev/null
	@$(KMAKE) headers >/dev/null
	@touch $@

scan: analyzer tree
	@$(SCAN) -j$(JOBS) --cache-max $(CACHE_MAX) --config-name $(KCONFIG) --build-dir $(KOBJ) \
		-o $(REPORT) $(KSRC) $(PATHS); \
	rc=$$?; \
	if [ $$rc -le 1 ]; then echo "report: $(REPORT)"; fi; \
	if [ $$rc -eq 1 ]; then echo "(some files did not parse: see the report's diagnostics)"; fi; \
	[ $$rc -le 1 ]

# Debian's own configuration of the release (linux-config-<ver>): generate
# says what the table serves on a Debian kernel, handlers built in, modules
# and not built. DISTRO_CONFIG=<a .config> for another one.
DISTRO_CONFIG ?= /usr/src/linux-config-$(KVER)/config.amd64_none_amd64.xz

# The committed set for this release: report and table. A report with
# files that did not parse (status 1) is still the report of the tree.
generate: analyzer tree
	@mkdir -p $(GEN_DIR)
	@$(SCAN) -j$(JOBS) --cache-max $(CACHE_MAX) --config-name $(KCONFIG) --build-dir $(KOBJ) \
		-o $(GEN_DIR)/report.json $(KSRC); \
	[ $$? -le 1 ]
	@case "$(DISTRO_CONFIG)" in *.xz) xz -dc "$(DISTRO_CONFIG)";; *) cat "$(DISTRO_CONFIG)";; esac \
		> $(BUILD)/distro-$(KVER).config
	@$(SCAN) table $(GEN_DIR)/report.json -o $(GEN_DIR)/ioctl_semantics_table.c \
		--config $(BUILD)/distro-$(KVER).config
	@echo "generated: $(GEN_DIR)"

kernel-patch: tree
	@kernel-glue/make-series.sh $(KSRC) $(GLUE_DIR) $(GEN_DIR)/ioctl_semantics_table.c
	@echo "series: $(GLUE_DIR)/series"

qemu-check: deps tree
	@KVER=$(KVER) JOBS=$(JOBS) KTAR=$(KTAR) QBUILD=$(BUILD)/qemu-$(KVER) \
	REPORT=$(CURDIR)/$(GEN_DIR)/report.json SERIES=$(CURDIR)/$(GLUE_DIR)/series \
	qemu-check/run.sh semantics plain

test: deps analyzer tree
	@KVER=$(KVER) KTAR=$(KTAR) JOBS=$(JOBS) BUILD=$(BUILD) \
	analyzer/tests/run-tests.sh "$(KSRC)" "$(KOBJ)"

bench: analyzer tree
	@analyzer/tests/bench.sh "$(KSRC)" "$(KOBJ)" "$(JOBS)" $(PATHS)

# the program, its knowledge files and man pages under PREFIX
PREFIX ?= /usr/local
install: analyzer
	$(MAKE) -s -C analyzer install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

clean:
	$(MAKE) -s -C analyzer clean

distclean: clean
	rm -rf $(BUILD)
