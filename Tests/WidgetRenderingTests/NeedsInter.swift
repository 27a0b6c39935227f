import Testing

@testable import WidgetRendering

extension Trait where Self == ConditionTrait {
    /// A test of text measured or drawn as iOS does it needs Inter (Debian's fonts-inter), which
    /// stands in for SF Pro; without it `make test` skips the test and says what to install.
    static func needsInter(_ what: String) -> Self {
        .enabled(if: SystemFont.isAvailable, "fonts-inter is not installed (apt-get install fonts-inter): \(what) skipped")
    }
}
