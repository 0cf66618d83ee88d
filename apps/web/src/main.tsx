import './app/zod-csp.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import './app/styles/sign-in.css'
import './app/theme.css'
import { Providers, createQueryClient } from './app/providers.tsx'
import { createAppRouter } from './app/router.tsx'

const client = createQueryClient()
const router = createAppRouter(client)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers client={client}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
)
