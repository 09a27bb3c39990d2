# The signed-in user of a request: the user name of its HTTP Basic credentials (any password,
# like Kinto's basicauth); 401 without them.
module BasicUser
  extend ActiveSupport::Concern
  include ActionController::HttpAuthentication::Basic::ControllerMethods

  included do
    before_action :require_user
  end

  private

  def require_user
    @user = authenticate_with_http_basic { |name, _password| name.presence }
    render json: { error: "unauthorized", message: "sign in with HTTP Basic" }, status: :unauthorized unless @user
  end
end
