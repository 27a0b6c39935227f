public import Foundation

// Key-value coding's two calls on `UserDefaults`, which iOS code uses as `object(forKey:)` and
// `set(_:forKey:)` (Apple's Emoji Rangers sample does): Linux's Foundation has no key-value coding.
extension UserDefaults {
    /// The value stored for `key`, as `object(forKey:)`.
    public func value(forKey key: String) -> Any? { object(forKey: key) }

    /// Stores `value` for `key`, as `set(_:forKey:)`; nil removes it.
    public func setValue(_ value: Any?, forKey key: String) { set(value, forKey: key) }
}
