# The two set-up commands (see README):
#   make run    build everything (release), install the sample bundles into widgets.d/, run the host on them
#   make test   build everything (debug) and run all the tests
#
# SWIFT_BUILD_FLAGS lets CI or a second checkout use another scratch path (e.g. --scratch-path .build-ci).

SHELL := /bin/bash
SWIFT ?= swift
CC ?= cc
SWIFT_BUILD_FLAGS ?=
RELEASE := $(shell $(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path 2>/dev/null)
WIDGETS := $(RELEASE)/widgets
BUNDLES := libGameWidgets.so libSystemWidgets.so libCryptoWidgets.so

.PHONY: run build install test bench clean

run: install
	@echo "== widgets list"
	@$(WIDGETS) --plugins widgets.d list
	@$(RELEASE)/game-app show >/dev/null 2>&1 || $(RELEASE)/game-app reset
	@for kind in com.mygame.game-status org.widgets.system.load org.widgets.host-info; do \
		echo; echo "== widgets timeline $$kind"; $(WIDGETS) --plugins widgets.d timeline $$kind || exit 1; done
	@echo; echo "== widgets timeline com.mygame.leaderboard --family systemMedium"
	@$(WIDGETS) --plugins widgets.d timeline com.mygame.leaderboard --family systemMedium
	@# The crypto sample reads its prices from its shared container; offline, a sample file stands in.
	@d="$${XDG_DATA_HOME:-$$HOME/.local/share}/widgets/groups/group.org.widgets.crypto"; \
		mkdir -p "$$d" && { [ -f "$$d/prices.json" ] || cp Plugins/Crypto/prices.json "$$d/prices.json"; }
	@echo; echo "== widgets options com.mygame.character-detail character"
	@$(WIDGETS) --plugins widgets.d options com.mygame.character-detail character
	@echo; echo "== widgets recommendations org.widgets.crypto.price"
	@$(WIDGETS) --plugins widgets.d recommendations org.widgets.crypto.price
	@echo; echo "== widgets timeline org.widgets.crypto.price"
	@$(WIDGETS) --plugins widgets.d timeline org.widgets.crypto.price

build:
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

# Bundles go in by rename, never by writing over a file a running host may have mapped.
install: build
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
	@set -o pipefail; log=$$(mktemp); status=0; $(SWIFT) test --skip-build $(SWIFT_BUILD_FLAGS) 2>&1 | tee "$$log" || status=1; \
		grep -q '✘' "$$log" && status=1; \
		if [ $$status -ne 0 ]; then echo; echo "== what failed"; grep -E -A6 '✘|recorded an issue|error:' "$$log" | grep -v '^--$$' | head -120; fi; \
		rm -f "$$log"; \
		if [ -z "$${CHROMIUM:-}" ] && ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then \
			echo; echo "note: no Chromium installed, so the browser test of the home screen was SKIPPED (apt-get install chromium; .ci/run installs it)"; fi; \
		exit $$status

bench:
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --product widgets
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --product widgets-bench
	$(RELEASE)/widgets-bench

clean:
	rm -rf .build .build-ios-style widgets.d/*.so
