import FoundationEssentials
import Glibc

extension Error {
    /// The error as a sentence's end for a person: "No such file or directory" for a file's,
    /// an error's own description otherwise. (FoundationEssentials, on which the host is built,
    /// has no `localizedDescription`; its errors would print as their fields.)
    package var explanation: String {
        if let error = self as? CocoaError {
            if let underlying = error.underlying as? POSIXError { return String(cString: strerror(underlying.code.rawValue)) }
            if let path = error.userInfo["NSFilePath"] as? String { return "\(Self.meaning(of: error.code)) (\(path))" }
            return Self.meaning(of: error.code)
        }
        if let error = self as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
        if let error = self as? DecodingError {
            let context: DecodingError.Context? =
                switch error {
                case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context): context
                @unknown default: nil
                }
            // A reader's own words ("Value missing for key inside <dict> at line 1") before the decoder's.
            if let underlying = context?.underlyingError as? CocoaError, let said = underlying.userInfo["NSDebugDescription"] as? String { return said }
            if let context { return context.debugDescription }
        }
        return "\(self)"
    }

    private static func meaning(of code: CocoaError.Code) -> String {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: "No such file or directory"
        case .fileReadNoPermission, .fileWriteNoPermission: "Permission denied"
        case .fileWriteFileExists: "File exists"
        case .fileWriteOutOfSpace: "No space left on device"
        case .fileWriteVolumeReadOnly: "Read-only file system"
        case .fileReadCorruptFile: "the file is not in the expected format"
        case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: "the text is not in the expected encoding"
        case .fileReadTooLarge: "the file is too large"
        default: "error \(code.rawValue) of the file system"
        }
    }
}
