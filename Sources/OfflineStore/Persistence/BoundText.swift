import GRDB
import GRDBSQLite

/// The text parameters of one of the writer's prepared statements (``WriterStatements``),
/// held in buffers of their own so that SQLite reads them in place (`SQLITE_STATIC`).
///
/// Bound `SQLITE_TRANSIENT`, SQLite frees the parameter's previous copy, allocates a new one
/// and copies the text for every bind: about 400 of the 700 instructions of a text bind,
/// and an edit binds eight (callgrind). Here each parameter has a buffer that only grows,
/// so a bind is one copy into memory that stays allocated while the statement is prepared.
///
/// Why that is safe: SQLite reads a bound text only while the statement steps, and every
/// use of a ``HotQuery`` statement binds all its parameters again before stepping it (the
/// writer's cache resets it when handing it out). A buffer is overwritten or freed only when
/// its parameter is bound again (SQLite then drops the old pointer without reading it) or
/// after the statements were finalized (``WriterStatements/removeAll()``). Only the writer
/// connection uses these buffers, one access at a time, as it does its statements.
///
/// Its storage sits behind pointers allocated once (`let`), not in `var` properties: Swift
/// checks every access to a class's `var` for exclusivity at run time (`swift_beginAccess`,
/// about 100 instructions with its bookkeeping), and an edit binds eight texts.
final class BoundText {
    /// One buffer per parameter, by index from 0 (parameter 1); empty until first bound.
    private let buffers: UnsafeMutableBufferPointer<UnsafeMutableRawBufferPointer>
    /// Where JSON is serialized before it is copied into its parameter's buffer; kept, so
    /// that its capacity is allocated once.
    private let json: UnsafeMutablePointer<[UInt8]>

    /// Buffers for a statement of `parameterCount` parameters (`sqlite3_bind_parameter_count`).
    init(parameterCount: Int) {
        buffers = .allocate(capacity: max(0, parameterCount))
        buffers.initialize(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        json = .allocate(capacity: 1)
        json.initialize(to: [])
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        buffers.deallocate()
        json.deinitialize(count: 1)
        json.deallocate()
    }

    /// Copies `bytes` into parameter `index`'s buffer and binds them there as UTF-8 text.
    func bind(_ handle: SQLiteStatement, _ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        let slot = Int(index) - 1
        guard buffers.indices.contains(slot) else { return SQLITE_RANGE }  // what SQLite answers
        if buffers[slot].count < bytes.count || buffers[slot].baseAddress == nil {
            // Growing drops the old buffer, which only the binding replaced below points at.
            buffers[slot].deallocate()
            buffers[slot] = .allocate(byteCount: max(64, bytes.count.nextPowerOfTwo), alignment: 8)
        }
        let buffer = buffers[slot]
        if let source = bytes.baseAddress, !bytes.isEmpty {
            buffer.baseAddress!.copyMemory(from: source, byteCount: bytes.count)
        }
        return sqlite3_bind_text64(handle, index, buffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                                   sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8))  // nil: SQLITE_STATIC
    }

    /// Serializes `value` (``JSONValue/write(into:)``) and binds the text to parameter `index`.
    func bindJSON(_ handle: SQLiteStatement, _ index: Int32, _ value: JSONValue) -> Int32 {
        json.pointee.removeAll(keepingCapacity: true)
        value.write(into: &json.pointee)
        return json.pointee.withUnsafeBytes { bind(handle, index, $0) }
    }
}

private extension Int {
    /// The least power of two at least `self` (1 for 0).
    var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}
