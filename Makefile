# The two set-up commands for working in the checkout (see README):
#   make run    build the host, the SDK and the samples (release; not the tests), put the sample bundles into widgets.d/, run the host on them
#   make test   build everything (debug) and run all the tests
# Installing, outside the checkout:
#   make install PREFIX=~/.local     (default /usr/local; DESTDIR honoured)   make uninstall PREFIX=...
#
# SWIFT_BUILD_FLAGS lets CI or a second checkout use another scratch path (e.g. --scratch-path .build-ci).

SHELL := /bin/bash
SWIFT ?= swift
CC ?= cc
SWIFT_BUILD_FLAGS ?=
# Asked of SwiftPM unless given on make's command line (a test installs a debug build with RELEASE=.build/debug, and
# must not wait on SwiftPM's lock, which the running tests hold).
ifneq ($(origin RELEASE),command line)
RELEASE := $(shell $(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path 2>/dev/null)
endif
# sudo's PATH may have no swift: the default build directory, then.
RELEASE := $(or $(RELEASE),.build/release)
WIDGETS := $(RELEASE)/widgets
BUNDLES := libGameWidgets.so libSystemWidgets.so libCryptoWidgets.so
# Seconds a test run may take before Tests/run-suite ends it and says what it was doing (a run takes one
# to two minutes).
TEST_TIME_LIMIT ?= 600

.PHONY: run build samples install uninstall test bench clean

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
LIBDIR := $(DESTDIR)$(PREFIX)/lib/widgets
BUNDLEDIR := $(LIBDIR)/widgets.d
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
APPDIR := $(DESTDIR)$(PREFIX)/share/applications
UNITDIR := $(DESTDIR)$(PREFIX)/share/systemd/user
DOCDIR := $(DESTDIR)$(PREFIX)/share/doc/widgets

run: samples
	@echo "== widgets list"
	@$(WIDGETS) --plugins widgets.d list
	@for kind in com.mygame.game-status org.widgets.system.load org.widgets.host-info; do \
		echo; echo "== widgets timeline $$kind"; $(WIDGETS) --plugins widgets.d timeline $$kind || exit 1; done
	@echo; echo "== widgets timeline com.mygame.leaderboard --family systemMedium"
	@$(WIDGETS) --plugins widgets.d timeline com.mygame.leaderboard --family systemMedium
	@echo; echo "== widgets options com.mygame.character-detail character"
	@$(WIDGETS) --plugins widgets.d options com.mygame.character-detail character
	@echo; echo "== widgets recommendations org.widgets.crypto.price"
	@$(WIDGETS) --plugins widgets.d recommendations org.widgets.crypto.price
	@echo; echo "== widgets timeline org.widgets.crypto.price"
	@$(WIDGETS) --plugins widgets.d timeline org.widgets.crypto.price

# What users build and install: the tests and their fixtures left out (Package.swift).
build:
	WIDGETS_PRODUCTS_ONLY=1 $(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

# Bundles go in by rename, never by writing over a file a running host may have mapped.
samples: build
	install -d -m 0755 widgets.d
	chmod go-w widgets.d
	for bundle in $(BUNDLES); do \
		install -m 0644 $(RELEASE)/$$bundle widgets.d/.$$bundle.tmp && mv -f widgets.d/.$$bundle.tmp widgets.d/$$bundle || exit 1; done
	$(CC) -shared -fPIC -O2 -Wall -Wextra -I Sources/CWidgetABI/include Plugins/HostInfo/hostinfo.c -o widgets.d/.libHostInfo.so.tmp
	chmod 0644 widgets.d/.libHostInfo.so.tmp && mv -f widgets.d/.libHostInfo.so.tmp widgets.d/libHostInfo.so

# On failure, the failing tests' lines are printed again at the end, where a log's tail shows them.
test:
	$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)
	Tests/iOSStyleBundle/build.sh
	@# The browser test runs after the others: Chromium's start would starve their real-time safety nets.
	@# Tests/run-suite runs the test binary as `swift test --skip-build` does, within a time limit.
	@binary=$$($(SWIFT) build --show-bin-path $(SWIFT_BUILD_FLAGS))/widgetsPackageTests.xctest; log=$$(mktemp); part=$$(mktemp); status=0; \
		Tests/run-suite $(TEST_TIME_LIMIT) "$$part" "$$binary" --skip BrowserTests || status=1; cat "$$part" >> "$$log"; \
		Tests/run-suite $(TEST_TIME_LIMIT) "$$part" "$$binary" --filter BrowserTests || status=1; cat "$$part" >> "$$log"; rm -f "$$part"; \
		grep -q '✘' "$$log" && status=1; \
		if [ $$status -ne 0 ]; then echo; echo "== what failed"; grep -E -A6 '✘|recorded an issue|error:' "$$log" | grep -v '^--$$' | head -120; fi; \
		rm -f "$$log"; \
		if [ -z "$${CHROMIUM:-}" ] && ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then \
			echo; echo "note: no Chromium installed, so the browser test of the home screen was SKIPPED (apt-get install chromium; .ci/run installs it)"; fi; \
		if ! command -v sway >/dev/null || ! command -v grim >/dev/null; then \
			echo; echo "note: no sway or grim installed, so the desktop surface's test was SKIPPED (apt-get install sway grim; .ci/run installs them)"; fi; \
		if ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null; then \
			echo; echo "note: no Xvfb or xdotool installed, so the X11 desktop window's test was SKIPPED (apt-get install xvfb xdotool; .ci/run installs them)"; fi; \
		if ! command -v dbus-daemon >/dev/null || ! /usr/bin/python3 -c 'import dbus, gi' >/dev/null 2>&1; then \
			echo; echo "note: no dbus-daemon, or no python3-dbus and python3-gi, so the notification test was SKIPPED (apt-get install dbus-daemon python3-dbus python3-gi; .ci/run installs them)"; fi; \
		exit $$status

# Everything a user lives with, outside the checkout: the executables (widgets-worker, which loads
# Swift bundles for the statically linked widgets, in PREFIX/lib/widgets), the sample bundles in
# PREFIX/lib/widgets/widgets.d (on the default search path after the user's own directory), the man
# page and completions (made by the installed `widgets` from its command table), the SDK that
# `widgets build` compiles extensions against (PREFIX/lib/widgets/sdk), the .desktop file and the
# systemd user unit. Files go in by rename, so a running host never sees half a bundle.
# Taken from the build directory, never from the checkout's widgets.d/. (The tests install a debug
# build: make -o build install RELEASE=.build/debug DESTDIR=...)
# Through sudo (or doas) nothing is built: root's files in .build would stop your next build. Build as
# yourself first (make build), then sudo make install PREFIX=/usr/local.
install: $(if $(SUDO_USER)$(DOAS_USER),,build)
	@for program in widgets widgets-worker game-app $(BUNDLES); do test -f "$(RELEASE)/$$program" || { \
		echo "make install: $$program is not built in '$(RELEASE)'; run 'make build' first (as yourself, not through sudo)" >&2; exit 1; }; done
	install -d -m 0755 $(BINDIR) $(BUNDLEDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR) $(APPDIR) $(UNITDIR)
	@# The worker first: a widgets started meanwhile finds the worker of its own build.
	install -m 0755 $(RELEASE)/widgets-worker $(LIBDIR)/.widgets-worker.tmp && mv -f $(LIBDIR)/.widgets-worker.tmp $(LIBDIR)/widgets-worker
	@# widgets as distributions ship a program: its symbols and debug information (over half its 39 MB)
	@# in bin/.debug/widgets.debug, which the link left in it names (gdb and Swift's backtracer find it there).
	install -m 0755 $(RELEASE)/widgets $(BINDIR)/.widgets.tmp
	@if command -v objcopy >/dev/null 2>&1; then \
		install -d -m 0755 $(BINDIR)/.debug && objcopy --only-keep-debug $(BINDIR)/.widgets.tmp $(BINDIR)/.debug/widgets.debug && \
		chmod 0644 $(BINDIR)/.debug/widgets.debug && objcopy --strip-all --add-gnu-debuglink=$(BINDIR)/.debug/widgets.debug $(BINDIR)/.widgets.tmp && \
		echo "installed widgets without its debug information, which is in $(BINDIR)/.debug/widgets.debug" || exit 1; \
	else echo "note: no objcopy (Debian's binutils), so widgets is installed with its debug information"; fi
	mv -f $(BINDIR)/.widgets.tmp $(BINDIR)/widgets
	install -m 0755 $(RELEASE)/game-app $(BINDIR)/.game-app.tmp && mv -f $(BINDIR)/.game-app.tmp $(BINDIR)/game-app
	for bundle in $(BUNDLES); do \
		install -m 0644 $(RELEASE)/$$bundle $(BUNDLEDIR)/.$$bundle.tmp && mv -f $(BUNDLEDIR)/.$$bundle.tmp $(BUNDLEDIR)/$$bundle || exit 1; done
	$(CC) -shared -fPIC -O2 -Wall -Wextra -I Sources/CWidgetABI/include Plugins/HostInfo/hostinfo.c -o $(BUNDLEDIR)/.libHostInfo.so.tmp
	chmod 0644 $(BUNDLEDIR)/.libHostInfo.so.tmp && mv -f $(BUNDLEDIR)/.libHostInfo.so.tmp $(BUNDLEDIR)/libHostInfo.so
	@# The SDK widgets build compiles extensions against: modules, objects, headers, the macro plugin.
	$(WIDGETS) sdk --install $(LIBDIR)/sdk
	WIDGETS_DOC_DIR=$(PREFIX)/share/doc/widgets $(WIDGETS) man > $(MANDIR)/widgets.1 && chmod 0644 $(MANDIR)/widgets.1
	$(WIDGETS) completions bash > $(BASHDIR)/widgets
	$(WIDGETS) completions zsh > $(ZSHDIR)/_widgets
	$(WIDGETS) completions fish > $(FISHDIR)/widgets.fish
	install -m 0644 share/widgets-home.desktop $(APPDIR)/widgets-home.desktop
	for unit in widgets widgets-desktop; do \
		sed 's|@BINDIR@|$(PREFIX)/bin|g' share/$$unit.service.in > $(UNITDIR)/$$unit.service && chmod 0644 $(UNITDIR)/$$unit.service || exit 1; done
	@# The documents help names (docs/WEB.md...), where it finds them installed.
	install -d -m 0755 $(DOCDIR)
	install -m 0644 README.md docs/*.md $(DOCDIR)/
	@echo
	@echo "installed into $(DESTDIR)$(PREFIX). Next:"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now widgets"
	@echo "  widgets home"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on your PATH";; esac

# Stopped and disabled first (a real uninstall only, not into a DESTDIR), so that no enabled unit
# is left pointing at a file that is gone; a link to the removed unit that is left anyway (enabled
# by hand, or systemctl missing) is removed from the user's systemd directory.
uninstall:
	@for unit in widgets-desktop widgets; do \
		if [ -z "$(DESTDIR)" ] && command -v systemctl >/dev/null 2>&1 && [ -f "$(UNITDIR)/$$unit.service" ]; then \
		systemctl --user disable --now $$unit.service 2>/dev/null && echo "stopped and disabled $$unit.service" || true; fi; done
	rm -f $(BINDIR)/widgets $(BINDIR)/.debug/widgets.debug $(BINDIR)/game-app $(MANDIR)/widgets.1 $(BASHDIR)/widgets $(ZSHDIR)/_widgets $(FISHDIR)/widgets.fish
	rm -f $(APPDIR)/widgets-home.desktop $(UNITDIR)/widgets.service $(UNITDIR)/widgets-desktop.service
	@for link in "$${XDG_CONFIG_HOME:-$$HOME/.config}"/systemd/user/*.wants/widgets.service "$${XDG_CONFIG_HOME:-$$HOME/.config}"/systemd/user/*.wants/widgets-desktop.service; do \
		[ -L "$$link" ] && [ ! -e "$$link" ] && case "$$(readlink "$$link")" in "$(PREFIX)/share/systemd/user/widgets.service"|"$(PREFIX)/share/systemd/user/widgets-desktop.service") true;; *) false;; esac && rm -f "$$link" && echo "removed $$link"; done; true
	for bundle in $(BUNDLES) libHostInfo.so; do rm -f $(BUNDLEDIR)/$$bundle; done
	rm -f $(LIBDIR)/widgets-worker
	rm -rf "$(LIBDIR)/sdk" "$(DOCDIR)"
	-rmdir $(BUNDLEDIR) $(LIBDIR) $(BINDIR)/.debug 2>/dev/null
	@[ -z "$(DESTDIR)" ] && command -v systemctl >/dev/null 2>&1 && systemctl --user daemon-reload 2>/dev/null || true
	@echo "removed from $(DESTDIR)$(PREFIX); your instances ($${XDG_STATE_HOME:-~/.local/state}/widgets) and bundles are kept"

# Everything the benchmarks use, built first: the executables, the sample bundles (the listing
# benchmark lists copies of libSystemWidgets.so; the host memory benchmark hosts widgets.d's C sample
# beside the Swift ones, so `samples`, not `build` alone) and the SDK (widgets build's benchmark).
bench: samples
	WIDGETS_BENCH=1 $(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --product widgets-bench
	$(RELEASE)/widgets-bench

clean:
	rm -rf .build .build-ios-style widgets.d/*.so
