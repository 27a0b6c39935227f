#!/usr/bin/env bash
# Builds Tests/iOSStyleBundle as an author's package outside this one would be: a package of its
# own in .build-ios-style/package that depends on this repository by path, with the widgets built
# as a Swift 5 mode bundle and a Swift 6 mode bundle, the app, and Author/ (the README's smallest
# author package, ThirdPartyBundleTests), all in one package, so that the SDK is compiled for them
# once per run. `make test` runs it before the
# tests; the tests run it themselves when its products are missing. Incremental: files are copied
# only when they changed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
package="$root/.build-ios-style/package"
identity="$(basename "$root" | tr '[:upper:]' '[:lower:]')"

# Copies the files of directory $1 into $2, leaving files that did not change untouched.
sync() {
    mkdir -p "$2"
    for file in "$2"/*.swift; do
        [ -e "$file" ] && [ ! -e "$1/$(basename "$file")" ] && rm -f "$file"
    done
    for file in "$1"/*.swift; do
        cmp -s "$file" "$2/$(basename "$file")" || cp "$file" "$2/"
    done
}

sync "$here/Widgets" "$package/Sources/IOSWidgets5"
sync "$here/Widgets" "$package/Sources/IOSWidgets6"
sync "$here/App" "$package/Sources/IOSApp"
sync "$here/Author" "$package/Sources/WeatherWidgets"

manifest=$(cat <<MANIFEST
// swift-tools-version: 6.2
// Made by Tests/iOSStyleBundle/build.sh.
import PackageDescription

let widgetKit: Target.Dependency = .product(name: "WidgetKit", package: "$identity")
let package = Package(
    name: "IOSStyleWidgets",
    products: [
        .library(name: "IOSWidgets5", type: .dynamic, targets: ["IOSWidgets5"]),
        .library(name: "IOSWidgets6", type: .dynamic, targets: ["IOSWidgets6"]),
        .executable(name: "ios-app", targets: ["IOSApp"]),
        .library(name: "WeatherWidgets", type: .dynamic, targets: ["WeatherWidgets"]),
    ],
    dependencies: [.package(path: "$root")],
    targets: [
        .target(name: "IOSWidgets5", dependencies: [widgetKit], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "IOSWidgets6", dependencies: [widgetKit], swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(name: "IOSApp", dependencies: [widgetKit]),
        .target(name: "WeatherWidgets", dependencies: [widgetKit]),
    ]
)
MANIFEST
)
[ "$(cat "$package/Package.swift" 2>/dev/null)" = "$manifest" ] || printf '%s\n' "$manifest" > "$package/Package.swift"

# SwiftPM keeps a dependency's list of source files from its last plan: a file added to this
# repository would not be compiled into the package's copy of the SDK. Dropping the plan makes it
# look again (the compiled objects stay).
rm -f "$package"/.build/*.yaml "$package"/.build/*/*.yaml
# No index: nothing reads one here, and indexing made the build compile the standard library's
# _Concurrency, _StringProcessing, Glibc and Synchronization from their interfaces first. The
# compiler's module cache is the checkout's debug build's when there is one: the swift-syntax
# modules the SDK's macro imports are compiled there from their interfaces already (12 s of CPU),
# and the C modules of Glibc and of the SDK.
flags=(--disable-index-store)
# (By its real path: the modules in it record theirs, and .build/debug is a link.)
if cache="$(cd "$root/.build/debug/ModuleCache" 2>/dev/null && pwd -P)"; then
    flags+=(-Xswiftc -module-cache-path -Xswiftc "$cache")
fi
swift build --package-path "$package" "${flags[@]}"
