// The floor of `widgets list` from the registry cache, as a process of its own: what any program that
// lists bundles from a cache must do, and nothing else. It lists the directory named first, `stat`s
// each `.so` in it, and reads the cache file named second whole. Swift with the standard library and
// Glibc only. widgets-bench compiles it (`swiftc -O`) and runs it beside `widgets list`.
import Glibc

let arguments = CommandLine.arguments
guard arguments.count == 3, let stream = opendir(arguments[1]) else {
    print("usage: listing_floor DIRECTORY CACHE")
    exit(2)
}
var found = 0
var info = stat()
while let entry = readdir(stream) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    if name.hasSuffix(".so"), stat(arguments[1] + "/" + name, &info) == 0 { found += 1 }
}
closedir(stream)
let descriptor = open(arguments[2], O_RDONLY | O_CLOEXEC)
var buffer = [UInt8](repeating: 0, count: 1 << 16)
var total = 0
while descriptor >= 0 {
    let count = read(descriptor, &buffer, buffer.count)
    if count <= 0 { break }
    total += count
}
close(descriptor)
print(found, total)
