# The signed-in user lets another user change their notes (POST /note_grants with
# {"grantee": NAME}), or withdraws it (DELETE /note_grants/NAME).
class NoteGrantsController < ApplicationController
  include BasicUser

  def create
    grant = NoteGrant.find_or_create_by!(owner: @user, grantee: params.require(:grantee))
    render json: grant, status: :created
  end

  def destroy
    NoteGrant.where(owner: @user, grantee: params[:grantee]).delete_all
    head :no_content
  end
end
