import Foundation

extension Data {
    /// Whether the UTF-8 bytes of `text` occur in these bytes, found with `memchr` and `memcmp`: the
    /// tests look into whole programs (tens of megabytes), where `Data.firstRange(of:)`, generic
    /// code reading a byte at a time (and built unoptimized with the tests), took seconds of the
    /// test run's CPU.
    public func contains(bytesOf text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let first = needle.first else { return true }
        return withUnsafeBytes { haystack in
            guard var start = haystack.baseAddress else { return false }
            let end = start + haystack.count
            while end - start >= needle.count, let found = memchr(start, Int32(first), end - start - needle.count + 1) {
                if memcmp(found, needle, needle.count) == 0 { return true }
                start = UnsafeRawPointer(found) + 1
            }
            return false
        }
    }
}
