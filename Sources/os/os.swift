// `import os` (or `import os.log`) brings the unified logging API; here that is `OSLog`'s `Logger`.
@_exported import OSLog
