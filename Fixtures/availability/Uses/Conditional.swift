// Code that only some platforms compile is checked for those only.

func platformCode(_ bytes: [UInt8]) -> String? {
    #if os(macOS) || os(Linux)
    // expect: String.init(validating:as:) needs macOS 15
    return String(validating: bytes, as: UTF8.self)
    #else
    return nil
    #endif
}
