extension Unicode.Scalar {
    /// A control character: C0 (below U+0020), DEL, or C1 (U+0080 to U+009F), the general category
    /// Cc. A terminal acts on them (a line break, an escape, a bell) instead of showing them, and
    /// they have no place in a name or a one-line diagnostic.
    package var isControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}
