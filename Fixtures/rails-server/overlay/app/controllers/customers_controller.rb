class CustomersController < ApplicationController
  include RestResource
  before_action :set_record, only: [:show, :update, :destroy]
  before_action :check_if_match, only: [:update, :destroy]

  private

  def model = Customer

  def record_params
    params.require(:customer).permit(:name, :email, :lock_version)
  end
end
