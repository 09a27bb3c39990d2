# A create request's Idempotency-Key and the record it created, so a replay answers it.
class IdempotencyKey < ApplicationRecord
end
