import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import './styles/app.css';
import { FocusStyleManager } from '@blueprintjs/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { installIconLoader } from './icons/icon-loader.ts';
import { preloadRoute } from './routing/preload.ts';

// Focus rings for keyboard users only.
FocusStyleManager.onlyShowFocusOnTabs();
installIconLoader();

// The page being opened is fetched while React starts and the session is restored, not after.
preloadRoute(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
