# The owner lets the grantee change every note of the owner's (until the grant is deleted).
class NoteGrant < ApplicationRecord
end
