# Routes of the OfflineStore test server (Fixtures/rails-server).
Rails.application.routes.draw do
  resources :customers do
    resources :orders, only: [:index, :create]
  end
  resources :orders
  resources :products do
    member do
      post :image, action: :upload_image
      get :image
    end
  end
  resources :notes
  resources :note_grants, only: [:create, :destroy], param: :grantee
  match '*unmatched', to: 'application#route_not_found', via: :all
end
